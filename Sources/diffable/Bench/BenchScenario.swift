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

    /// The String identifiers of `ids`, ids below `shared.count` taking the instance in
    /// `shared` (so old and new lists hold one copy of each string, as an app's model would).
    /// - Complexity: O(ids).
    static func names(_ ids: [Int], shared: [String] = []) -> [String] {
        ids.map { $0 < shared.count ? shared[$0] : name($0) }
    }
}
