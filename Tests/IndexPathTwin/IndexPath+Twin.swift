import Foundation

// A second package's public copy of UIKit's IndexPath accessors (test support): a module that
// imports both it and Diffable must still compile every `IndexPath(item:section:)`, `.item`
// and `.section` (Diffable's are disfavoured).
extension IndexPath {
    /// The path `[section, item]`. - Complexity: O(1).
    public init(item: Int, section: Int) { self.init(indexes: [section, item]) }
    /// The first index. - Complexity: O(1).
    public var section: Int { self[0] }
    /// The second index. - Complexity: O(1).
    public var item: Int { self[1] }
}
