import Diffable
import DiffableJSONText
import Foundation

/// The fixture `expect` object as JSON bytes, byte for byte what `JSONEncoder` with
/// `[.sortedKeys, .withoutEscapingSlashes]` writes, at memory speed: batches are written by
/// hand (integers only), an error object, small, through `JSONEncoder` itself.
public enum OutcomeJSON {
    /// - Complexity: O(operations) for batches.
    public static func encode(_ outcome: DiffOutcome) throws -> [UInt8] {
        guard case .batches(let batches) = outcome else { return Array(try foundation(outcome)) }
        var out = JSONText(capacity: 64 + batches.reduce(0) { $0 + $1.operationCount * 16 })
        out.append("{\"")
        out.append(DiffOutcome.CodingKeys.batches.stringValue)
        out.append("\":[")
        for (index, batch) in batches.enumerated() {
            if index > 0 { out.append(byte: UInt8(ascii: ",")) }
            // Keys in sorted order, as JSONEncoder's .sortedKeys gives them.
            out.append("{\"deleteItems\":")
            paths(batch.deleteItems, &out)
            out.append(",\"deleteSections\":")
            integers(batch.deleteSections, &out)
            out.append(",\"insertItems\":")
            paths(batch.insertItems, &out)
            out.append(",\"insertSections\":")
            integers(batch.insertSections, &out)
            out.append(",\"moveItems\":[")
            for (position, move) in batch.moveItems.enumerated() {
                out.append(position == 0 ? "[" : ",[")
                path(move.from, &out)
                out.append(byte: UInt8(ascii: ","))
                path(move.to, &out)
                out.append(byte: UInt8(ascii: "]"))
            }
            out.append("],\"moveSections\":[")
            for (position, move) in batch.moveSections.enumerated() {
                out.append(position == 0 ? "[" : ",[")
                out.append(move.from)
                out.append(byte: UInt8(ascii: ","))
                out.append(move.to)
                out.append(byte: UInt8(ascii: "]"))
            }
            out.append("],\"reconfigureItems\":")
            paths(batch.reconfigureItems, &out)
            out.append(",\"reloadItems\":")
            paths(batch.reloadItems, &out)
            out.append(",\"reloadSections\":")
            integers(batch.reloadSections, &out)
            out.append(byte: UInt8(ascii: "}"))
        }
        out.append("]}")
        return out.bytes
    }

    /// The same object through `JSONEncoder` (the reference the fast writer must equal).
    /// - Complexity: O(size of the outcome).
    public static func foundation(_ outcome: DiffOutcome) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(outcome)
    }

    private static func integers(_ values: [Int], _ out: inout JSONText) {
        out.append(byte: UInt8(ascii: "["))
        for (position, value) in values.enumerated() {
            if position > 0 { out.append(byte: UInt8(ascii: ",")) }
            out.append(value)
        }
        out.append(byte: UInt8(ascii: "]"))
    }

    private static func paths(_ values: [IndexPath], _ out: inout JSONText) {
        out.append(byte: UInt8(ascii: "["))
        for (position, value) in values.enumerated() {
            if position > 0 { out.append(byte: UInt8(ascii: ",")) }
            path(value, &out)
        }
        out.append(byte: UInt8(ascii: "]"))
    }

    private static func path(_ value: IndexPath, _ out: inout JSONText) {
        out.append(byte: UInt8(ascii: "["))
        out.append(value.section)
        out.append(byte: UInt8(ascii: ","))
        out.append(value.item)
        out.append(byte: UInt8(ascii: "]"))
    }
}
