/// What the own-key tests of snapshots and outlines share: random programs of operation codes,
/// and a bijection that spreads small labels over every bit of a 64-bit identifier.
enum OwnKeyProgram {
    /// One step's numbers: the operation and three choices.
    typealias Code = (operation: Int, a: Int, b: Int, c: Int)

    /// An odd multiplier (a bijection of 64-bit words) that spreads labels over every bit.
    static let spread: UInt64 = 0x9E37_79B9_7F4A_7C15
    /// Its inverse modulo 2^64 (Newton's iteration doubles the correct low bits each round).
    static let unspread: UInt64 = {
        var inverse = spread
        for _ in 0..<6 { inverse = inverse &* (2 &- spread &* inverse) }
        return inverse
    }()

    /// Label → identifier and back for each 64-bit integer type, bijections that reach every
    /// bit: negative `Int`s, spread `Int64`s (either sign), `UInt64`s near the top.
    static func int(_ label: Int) -> Int { ~label }
    static func label(ofInt id: Int) -> Int { ~id }
    static func int64(_ label: Int) -> Int64 { Int64(bitPattern: UInt64(bitPattern: Int64(label)) &* spread) }
    static func label(ofInt64 id: Int64) -> Int { Int(Int64(bitPattern: UInt64(bitPattern: id) &* unspread)) }
    static func uint64(_ label: Int) -> UInt64 { UInt64.max &- UInt64(bitPattern: Int64(label)) }
    static func label(ofUInt64 id: UInt64) -> Int { Int(bitPattern: UInt(UInt64.max &- id)) }

    /// `count` steps, each one of `operations` operations with three choices below 1,000.
    static func codes(_ g: inout SeededGenerator, operations: Int, count: Int) -> [Code] {
        (0..<count).map { _ in
            (
                Int.random(in: 0..<operations, using: &g), Int.random(in: 0..<1000, using: &g), Int.random(in: 0..<1000, using: &g),
                Int.random(in: 0..<1000, using: &g)
            )
        }
    }
}
