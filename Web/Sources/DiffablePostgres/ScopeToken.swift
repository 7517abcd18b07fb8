import Crypto
import Foundation

/// A viewer's scope, signed by the server with HMAC-SHA256 and valid until a time: what a
/// server hands a signed-in user (as a cookie) and checks on every WebSocket it opens, so the
/// scope a live query is filtered by never comes from anything the browser could edit.
///
/// ```swift
/// let tokens = try ScopeToken.Signer(secret: secretBytes)        // the same secret on every instance
/// let cookie = tokens.sign(scope: "red", validFor: .seconds(3600))
/// let scope = try tokens.verify(cookie)                          // "red", or a ScopeToken.Refusal
/// ```
///
/// The text is `v1.<scope, base64url>.<expiry, Unix seconds>.<HMAC-SHA256 of what precedes,
/// base64url>`. The signature is compared in constant time. Nothing in it is secret (the
/// scope is readable); it only cannot be changed without the key.
///
/// It ships with DiffablePostgres because that product already builds swift-crypto (the
/// PostgreSQL driver's SCRAM authentication uses it); a ``ScopedLiveLists`` accepts any
/// authentication, this is one.
public enum ScopeToken {
    /// Why a token was refused (the reason is logged; the browser gets no detail).
    public struct Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        public enum Kind: String, Sendable {
            case malformed, badSignature = "bad-signature", expired
        }
        public var kind: Kind
        public var description: String
    }

    /// The longest scope accepted, in bytes.
    public static let maxScopeBytes = 128

    /// Signs and verifies tokens with one key.
    public struct Signer: Sendable {
        private let key: SymmetricKey

        /// - Parameter secret: at least 32 bytes (a key shorter than the hash's output would
        ///   weaken HMAC-SHA256); the same on every instance.
        /// - Throws: a message naming the problem when the secret is too short.
        /// - Complexity: O(secret length).
        public init(secret: some DataProtocol) throws {
            guard secret.count >= 32 else {
                throw Refusal(kind: .malformed, description: "the signing secret has \(secret.count) bytes; at least 32 are required")
            }
            key = SymmetricKey(data: Data(secret))
        }

        /// A token for `scope`, valid until `expiry`.
        /// - Precondition: `scope` has at most ``ScopeToken/maxScopeBytes`` bytes.
        /// - Complexity: O(scope length).
        public func sign(scope: String, expiresAt expiry: Date) -> String {
            precondition(scope.utf8.count <= maxScopeBytes, "ScopeToken: a scope has at most \(maxScopeBytes) bytes")
            let body = "v1.\(base64URL(Data(scope.utf8))).\(Int64(expiry.timeIntervalSince1970.rounded(.down)))"
            return body + "." + base64URL(Data(HMAC<SHA256>.authenticationCode(for: Data(body.utf8), using: key)))
        }

        /// A token for `scope`, valid for `duration` from now. - Complexity: as ``sign(scope:expiresAt:)``.
        public func sign(scope: String, validFor duration: Duration) -> String {
            sign(scope: scope, expiresAt: Date().addingTimeInterval(Double(duration.components.seconds)))
        }

        /// The scope `token` was signed for, if its signature is this key's and it has not expired at `now`.
        /// - Throws: a ``Refusal`` saying what was wrong.
        /// - Complexity: O(token length).
        public func verify(_ token: String, now: Date = Date()) throws(Refusal) -> String {
            try claims(of: token, now: now).scope
        }

        /// The scope `token` was signed for and when it expires, if its signature is this key's
        /// and it has not expired at `now`: what ``ScopedLiveLists`` needs to close a connection
        /// when its token expires.
        /// - Throws: a ``Refusal`` saying what was wrong.
        /// - Complexity: O(token length).
        public func claims(of token: String, now: Date = Date()) throws(Refusal) -> (scope: String, expiresAt: Date) {
            guard token.utf8.count <= 4 * maxScopeBytes else {
                throw Refusal(kind: .malformed, description: "the token has \(token.utf8.count) bytes, more than any valid one")
            }
            let parts = token.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 4, parts[0] == "v1", let scopeBytes = data(base64URL: parts[1]),
                let expiry = Int64(parts[2]), let signature = data(base64URL: parts[3])
            else {
                throw Refusal(kind: .malformed, description: "the token is not v1.<scope>.<expiry>.<signature>")
            }
            let body = Data(token.utf8.prefix(parts[0].utf8.count + parts[1].utf8.count + parts[2].utf8.count + 2))
            let expected = Data(HMAC<SHA256>.authenticationCode(for: body, using: key))
            guard signature.count == expected.count, zip(signature, expected).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0 else {
                throw Refusal(kind: .badSignature, description: "the token's signature is not this server's")
            }
            guard Double(expiry) > now.timeIntervalSince1970 else {
                throw Refusal(
                    kind: .expired, description: "the token expired at \(expiry) (Unix seconds), now is \(Int64(now.timeIntervalSince1970))"
                )
            }
            guard let scope = String(bytes: scopeBytes, encoding: .utf8) else {
                throw Refusal(kind: .malformed, description: "the token's scope is not UTF-8")
            }
            return (scope, Date(timeIntervalSince1970: Double(expiry)))
        }
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func data(base64URL text: Substring) -> Data? {
        guard
            text.utf8.allSatisfy({ byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D || byte == 0x5F
            })
        else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Data(base64Encoded: standard)
    }
}
