internal import CDiffCore
import Diffable

/// The versions `diffable --version` prints: the package's and the linked C core's.
///
/// The project has one version, kept in `dfc.h` (`DFC_VERSION_MAJOR`, `_MINOR`, `_RELEASE`;
/// the Makefile names `libdfc.so` from it too): the package version is the header's as
/// compiled in, the core version is what the linked library says at run time
/// (``CoreVersion/string``). They differ only when a core built from another header is linked.
enum DiffableVersion {
    /// "major.minor.release" from `dfc.h`'s macros. - Complexity: O(1).
    static let package = "\(DFC_VERSION_MAJOR).\(DFC_VERSION_MINOR).\(DFC_VERSION_RELEASE)"

    /// `diffable 0.3.0 (C core 0.3.0)`. - Complexity: O(1).
    static var description: String { "diffable \(package) (C core \(CoreVersion.string))" }
}
