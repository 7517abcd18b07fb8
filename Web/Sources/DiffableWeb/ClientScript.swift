import Hummingbird
import NIOCore

/// The browser client (Resources/diffable-list.js), compiled into the library: a page loads it
/// from ``LiveList/mount(on:at:)``'s `client.js` route, or an app serves ``source`` itself.
public enum ClientScript {
    /// The script's text. - Complexity: O(1) after the first use.
    public static let source = String(decoding: PackageResources.diffable_list_js, as: UTF8.self)
}

extension ClientScript {
    /// Adds `GET <path>/client.js` (the script, never cached stale) to `router`; returns the
    /// path without a trailing `/`, where the list's WebSocket goes.
    /// - Complexity: O(1).
    static func mount<Context: RequestContext>(on router: Router<Context>, at path: String) -> String {
        let prefix = path.hasSuffix("/") ? String(path.dropLast()) : path
        router.get(RouterPath(prefix + "/client.js")) { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: source)))
        }
        return prefix
    }
}
