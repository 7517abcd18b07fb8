internal import CDiffCore

/// The version of the C core this library is linked with.
///
/// `diffable --version` prints it beside the package version; compare it with the
/// version you built against when loading the core as a shared library (`libdfc.so.0.5`).
public enum CoreVersion {
    /// "major.minor.release", from `dfc_version_string()`. O(1).
    public static var string: String { String(cString: dfc_version_string()) }

    /// major × 10000 + minor × 100 + release (0.5.0 is 500), from `dfc_version()`. O(1).
    public static var number: Int { Int(dfc_version()) }
}
