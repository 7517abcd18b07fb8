import DiffableJSONText
import Foundation

/// A message from the browser, validated: anything else is answered with a ``ProtocolError``.
enum ClientMessage: Equatable {
    /// The client applied every message up to `sequence`.
    case acknowledge(sequence: Int)
    /// The client missed a message (or just connected again) and wants the whole list.
    case resynchronize
    /// The user clicked the disclosure control of the row at `section`, `item`, as the client
    /// showed it after message `sequence`.
    case toggle(sequence: Int, section: Int, item: Int)
    /// The filter box's text.
    case filter(String)

    /// The longest filter text accepted, in bytes.
    static let maxFilterBytes = 256

    /// Parses one text frame: a JSON object whose `t` names the message.
    /// - Complexity: O(length of `text`).
    static func parse(_ text: String) throws(ProtocolError) -> ClientMessage {
        // The browser's acknowledgements (most of what arrives) skip the JSON decoder.
        if let sequence = fastAcknowledgement(text) { return .acknowledge(sequence: sequence) }
        let fields: Fields
        do {
            fields = try JSONDecoder().decode(Fields.self, from: Data(text.utf8))
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            let name = context.codingPath.last?.stringValue ?? "the message"
            throw ProtocolError(.malformed, "field \(String(reflecting: name)) has the wrong type: \(context.debugDescription)")
        } catch {
            throw ProtocolError(.malformed, "the message is not a JSON object")
        }
        guard let type = fields.t else {
            throw ProtocolError(.malformed, #"the message has no string field "t" naming its type"#)
        }
        switch type {
        case "ack":
            return .acknowledge(sequence: try required(fields.seq, "seq", type))
        case "resync":
            return .resynchronize
        case "toggle":
            return .toggle(
                sequence: try required(fields.seq, "seq", type), section: try required(fields.section, "section", type),
                item: try required(fields.item, "item", type))
        case "filter":
            guard let text = fields.text else {
                throw ProtocolError(.malformed, #"a "filter" message needs a string field "text""#)
            }
            guard text.utf8.count <= maxFilterBytes else {
                throw ProtocolError(.tooLarge, "the filter text has \(text.utf8.count) bytes; at most \(maxFilterBytes) are accepted")
            }
            return .filter(text)
        default:
            throw ProtocolError(.unknownType, "unknown message type \(String(reflecting: String(type.prefix(40))))")
        }
    }

    /// The sequence number of exactly `{"t":"ack","seq":N}` (N: 1 to 18 digits, no sign), the
    /// client script's form; nil for anything else, which the decoder then reads.
    /// - Complexity: O(length of `text`).
    static func fastAcknowledgement(_ text: String) -> Int? {
        let prefix = #"{"t":"ack","seq":"#.utf8
        var utf8 = text.utf8[...]
        guard utf8.starts(with: prefix), utf8.last == UInt8(ascii: "}") else { return nil }
        utf8 = utf8.dropFirst(prefix.count).dropLast()
        guard (1...18).contains(utf8.count), utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return utf8.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// Every field any message has; which ones are required depends on `t`. Integers must be
    /// JSON integers (a Boolean or a fraction is a type error).
    private struct Fields: Decodable {
        var t: String?
        var seq: Int?
        var section: Int?
        var item: Int?
        var text: String?
    }

    private static func required(_ value: Int?, _ name: String, _ type: String) throws(ProtocolError) -> Int {
        guard let value, value >= 0 else {
            throw ProtocolError(.malformed, "a \(String(reflecting: type)) message needs a non-negative integer field \(String(reflecting: name))")
        }
        return value
    }
}

/// What the server answers to a message it cannot follow: `{"t":"error","code":…,"message":…}`.
/// The connection stays open (the client may go on), except after too many of them.
public struct ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A stable name for the kind of problem, for programs.
    public enum Code: String, Sendable {
        case malformed = "malformed"
        case unknownType = "unknown-type"
        case tooLarge = "too-large"
        case staleSequence = "stale-sequence"
        case unknownSequence = "unknown-sequence"
        case unknownRow = "unknown-row"
        case binaryFrame = "binary-frame"
        case tooManyErrors = "too-many-errors"
    }

    public var code: Code
    /// What was wrong, for a person.
    public var message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// The JSON text sent to the client.
    var json: String {
        var writer = JSONText()
        writer.append(#"{"t":"error","code":"#)
        writer.appendString(code.rawValue)
        writer.append(#","message":"#)
        writer.appendString(message)
        writer.append("}")
        return writer.text
    }
}
