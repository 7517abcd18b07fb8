import Diffable
import DiffableTools

typealias BenchScenario = WorkloadScenario
typealias BenchGenerator = SplitMix64

/// The identifiers a bench row uses: Swift `Int` (0, 1, 2, …), 16-byte strings
/// `"item-%011d"`, or random 64-bit `Int`s (UUID-like: the same ids scrambled by a bijection).
enum BenchKeys: String, CaseIterable {
    case int, string, random64

    /// The string identifier of `id`. - Complexity: O(1).
    static func name(_ id: Int) -> String { WorkloadKeyKind.name(id) }

    /// A bijection of 64-bit integers (SplitMix64's finalizer): distinct ids stay distinct,
    /// and their bits look random, as UUID-derived or database-assigned ids do.
    static func scrambled(_ id: Int) -> Int {
        var z = UInt64(bitPattern: Int64(id)) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(bitPattern: UInt(z ^ (z >> 31)))
    }

    /// The identifier of `id` as an `Int` (int and random64 keys).
    func integer(_ id: Int) -> Int { self == .random64 ? Self.scrambled(id) : id }

    /// `ids` as the core's packed strings, written straight as bytes: 10^7 names this way
    /// take a fraction of a second and no `String` objects.
    /// - Complexity: O(ids).
    static func packedNames(_ ids: [Int]) -> DiffContext.ByteList {
        let width = 16
        // Names past 11 digits are longer than 16 bytes: the general (slower) form.
        if ids.contains(where: { !(0..<100_000_000_000).contains($0) }) { return DiffContext.ByteList(strings: ids.lazy.map(name)) }
        var list = DiffContext.ByteList(strings: [String]())
        list.bytes = [UInt8](repeating: 0, count: ids.count * width)
        list.offsets = (0...ids.count).map { UInt64($0 * width) }
        list.bytes.withUnsafeMutableBufferPointer { bytes in
            for (index, id) in ids.enumerated() {
                let start = index * width
                for (offset, byte) in "item-".utf8.enumerated() { bytes[start + offset] = byte }
                var rest = id
                for digit in stride(from: width - 1, through: 5, by: -1) {
                    bytes[start + digit] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
            }
        }
        return list
    }

    /// The String identifiers of `ids`, ids below `shared.count` taking the instance in
    /// `shared` (so old and new lists hold one copy of each string, as an app's model would).
    /// - Complexity: O(ids).
    static func names(_ ids: [Int], shared: [String] = []) -> [String] {
        ids.map { $0 < shared.count ? shared[$0] : name($0) }
    }
}
