import ArgumentParser
import Diffable

/// `diffable demo`: the engine on built-in examples, printed for people.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Show the diff engine on built-in examples.")

    func run() throws {
        let differ = ListDiffer()
        let examples: [(String, [String], [String])] = [
            ("one item moved from the front to the back is one move, not n-1",
             ["a", "b", "c", "d", "e"], ["b", "c", "d", "e", "a"]),
            ("reversal keeps one item and moves the rest (b moves onto its own index: still a move)",
             ["a", "b", "c"], ["c", "b", "a"]),
            ("deletes, inserts and moves in one pass",
             ["apple", "banana", "cherry", "date", "elderberry"], ["cherry", "apple", "fig", "date", "elderberry"]),
            ("canonically equivalent spellings are one identifier (NFC keys)",
             ["caf\u{E9}", "na\u{EF}ve"], ["nai\u{308}ve", "cafe\u{301}"]),
        ]
        for (about, old, new) in examples {
            let change = try differ.difference(from: old, to: new)
            print("• \(about)")
            print("  old \(old)\n  new \(new)")
            print("  deletes \(change.deletes.map { "\($0) \(old[$0])" })")
            print("  inserts \(change.inserts.map { "\($0) \(new[$0])" })")
            print("  moves   \(change.moves.map { "\($0.from)→\($0.to) \(old[$0.from])" })")
            print()
        }
        do {
            _ = try differ.difference(from: ["x", "y", "x"], to: ["y"])
        } catch {
            print("• bad input is named, not a crash:\n  \(error)\n")
        }
        let n = 1_000_000
        let old = Array(0..<n)
        var new = old
        new.append(new.removeFirst())
        let clock = ContinuousClock()
        var moves = 0
        let elapsed = try clock.measure { moves = try differ.difference(from: old, to: new).moves.count }
        print("• 1,000,000 integer identifiers, first moved to the end: \(moves) move in \(elapsed)")
    }
}
