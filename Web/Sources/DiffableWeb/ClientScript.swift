/// The browser client (Resources/diffable-list.js), compiled into the library: a page loads it
/// from ``LiveList/mount(on:at:)``'s `client.js` route, or an app serves ``source`` itself.
public enum ClientScript {
    /// The script's text. - Complexity: O(1) after the first use.
    public static let source = String(decoding: PackageResources.diffable_list_js, as: UTF8.self)
}
