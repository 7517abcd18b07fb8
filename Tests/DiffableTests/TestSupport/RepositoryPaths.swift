import Foundation

/// Paths inside the repository, found from this file's own location.
///
/// Walking up to `Package.swift` (rather than counting `..` steps) keeps the paths right when a
/// test file moves to another folder.
enum RepositoryPaths {
    /// The repository's root: the nearest folder above this file that holds `Package.swift`.
    static let root: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    /// The cross-language fixtures, `Tests/Fixtures`.
    static let fixtures = root.appendingPathComponent("Tests/Fixtures")
}
