import Foundation

/// Debug builds (`swift run`, `swift build`) are many times slower than release builds on
/// large inputs; say so once, where it matters.
enum DebugBuild {
    /// Inputs above this many items get the notice.
    static let noticeThreshold = 100_000

    /// Prints the notice on stderr when this is a debug build and `itemCount` is large.
    /// - Complexity: O(1).
    static func noteIfLarge(itemCount: Int) {
        #if DEBUG
            if itemCount > noticeThreshold {
                FileHandle.standardError.write(
                    Data(
                        ("diffable: note: this is a debug build, slow on \(itemCount) items; "
                            + "use a release build (`make install`, or `swift build -c release` → .build/release/diffable)\n").utf8))
            }
        #endif
    }
}
