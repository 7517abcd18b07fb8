import Foundation

@testable import Diffable

/// Batches aimed at the rules that random batches seldom reach first — two moves sharing a
/// source or a target, a reload colliding with a delete or a move, two moves of one section, an
/// item operation in a moved section, a move at equal raw section indices — on random rows, with the data source's rows after the
/// batch chosen so that every count adds up: only the aimed rule can reject them.
enum AimedBatches {
    typealias Rows = [(String, [String])]

    /// The rules aimed at ("E11" is "E12" on a table).
    static let rules = ["E9", "E10", "E11", "E16", "E17", "E22", "I5", "I8", "I9"]

    struct Aimed {
        var batch: BatchUpdate
        var old: Rows
        var new: Rows
        /// The rule that must reject it in strict mode, for `flavor`.
        var rule: String
        /// Whether compat mode would show rows other than `new` (the data source's answer is
        /// the counts' only): such a batch is checked in strict mode only.
        var strictOnly: Bool
    }

    static func p(_ section: Int, _ item: Int) -> IndexPath { IndexPath(item: item, section: section) }

    /// A batch aimed at `rule` on random rows of 3 to 5 sections of 3 to 6 items.
    static func make(_ rule: String, table: Bool, _ g: inout SeededGenerator) -> Aimed {
        var next = 0
        func items(_ count: Int) -> [String] {
            defer { next += count }
            return (next..<(next + count)).map { "a\($0)" }
        }
        let old: Rows = (0..<Int.random(in: 3...5, using: &g)).map { ("A\($0)", items(Int.random(in: 3...6, using: &g))) }
        let s = Int.random(in: 0..<old.count, using: &g), count = old[s].1.count
        // Three distinct rows i, j, k of section s.
        let picked = Array((0..<count).shuffled(using: &g).prefix(3))
        let (i, j, k) = (picked[0], picked[1], picked[2])
        var moved = old  // the rows after moving (s, i) to (s, j)
        moved[s].1.insert(moved[s].1.remove(at: i), at: j)
        let move = BatchUpdate.ItemMove(from: p(s, i), to: p(s, j))
        switch rule {
        case "E9":  // a reload of a deleted row
            var new = old
            new[s].1.remove(at: i)
            return Aimed(
                batch: BatchUpdate(deleteItems: [p(s, i)], reloadItems: [p(s, i)]), old: old, new: new, rule: rule, strictOnly: false)
        case "E22":  // one section moved to two places, or two sections to one
            let (a, b) = (s, (s + 1) % old.count)
            let moves: [BatchUpdate.SectionMove] =
                Bool.random(using: &g) ? [.init(from: a, to: b), .init(from: a, to: a)] : [.init(from: a, to: b), .init(from: b, to: b)]
            var new = old
            new.swapAt(a, b)
            return Aimed(batch: BatchUpdate(moveSections: moves), old: old, new: new, rule: rule, strictOnly: false)
        case "E10":  // a reload of a move's source
            return Aimed(batch: BatchUpdate(moveItems: [move], reloadItems: [p(s, i)]), old: old, new: moved, rule: rule, strictOnly: false)
        case "E11":  // a reload whose implied insert lands on a move's target
            return Aimed(
                batch: BatchUpdate(moveItems: [move], reloadItems: [p(s, j)]), old: old, new: moved, rule: table ? "E12" : "E11",
                strictOnly: false)
        case "E16":
            return Aimed(
                batch: BatchUpdate(moveItems: [move, .init(from: p(s, k), to: p(s, j))]), old: old, new: moved, rule: rule,
                strictOnly: false)
        case "E17":
            return Aimed(
                batch: BatchUpdate(moveItems: [move, .init(from: p(s, i), to: p(s, k))]), old: old, new: moved, rule: rule,
                strictOnly: false)
        case "I9":  // a reload of another row beside a move
            return Aimed(batch: BatchUpdate(moveItems: [move], reloadItems: [p(s, k)]), old: old, new: moved, rule: rule, strictOnly: false)
        case "I5":  // a section moved, and one of its rows deleted
            var new = old
            var section = new.remove(at: s)
            section.1.remove(at: i)
            let target = (s + Int.random(in: 1..<old.count, using: &g)) % old.count
            new.insert(section, at: target)
            return Aimed(
                batch: BatchUpdate(moveSections: [.init(from: s, to: target)], deleteItems: [p(s, i)]), old: old, new: new, rule: rule,
                strictOnly: false)
        default:  // "I8": section 0 deleted, one appended, and a move from old section r to new section r
            // (which was old section r + 1), counted as neither in nor out; rows unmoved.
            let r = Int.random(in: 1...(old.count - 2), using: &g)
            let new = Array(old.dropFirst()) + [("A-new", items(Int.random(in: 1...3, using: &g)))]
            let into = Int.random(in: 0..<old[r + 1].1.count, using: &g)
            return Aimed(
                batch: BatchUpdate(
                    deleteSections: [0], insertSections: [new.count - 1], moveItems: [.init(from: p(r, 0), to: p(r, into))]),
                old: old, new: new, rule: "I8", strictOnly: true)
        }
    }
}
