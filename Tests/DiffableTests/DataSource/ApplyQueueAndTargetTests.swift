import Foundation
import Testing

@testable import Diffable

/// The apply path's bookkeeping that only speed depends on in the usual case: the target's
/// flags (read instead of its array of changes, whose generic element type costs a metadata
/// lookup) and the queue's own count of its requests. A wrong flag or count would otherwise
/// show only as a slower apply, a hang, or a crash far from its cause.
@Suite struct ApplyQueueAndTargetTests {
    typealias Snapshot = DiffableDataSourceSnapshot<String, String>
    typealias Outline = DiffableDataSourceSectionSnapshot<String>
    typealias Request = ApplyRequest<String, String, Never>

    static func request(_ changes: [ApplyChange<String, String>]) -> Request {
        Request(changes: changes, kind: .diff(animating: true), prepared: nil, completions: [], operation: "test")
    }

    static func flat() -> Snapshot {
        var s = Snapshot()
        s.appendSections(["A", "T"])
        s.appendItems(["a1"], toSection: "A")
        s.appendItems(["t1", "t2"], toSection: "T")
        return s
    }

    @Test func flagsInEveryInitializerPath() {
        var outline = Outline()
        outline.append(["t1", "t2"])
        outline.append(["c"], to: "t1")
        let edit = ApplyChange<String, String>.outline(OutlineEdit(section: "T", outline: outline))
        let flatBase = CommittedState(snapshot: Self.flat(), outlines: [:], loaded: true, generation: 0)
        let outlineBase = CommittedState(snapshot: Self.flat(), outlines: ["T": outline], loaded: true, generation: 0)
        let update = ApplyChange<String, String>.update(SnapshotUpdate { _ in true })
        // (request, base, isSoleOutlineEdit, madeSeveralChanges)
        let cases: [(String, [ApplyChange<String, String>], CommittedState<String, String>, Bool, Bool)] = [
            ("one snapshot, flat base (inlined path)", [.snapshot(Self.flat())], flatBase, false, false),
            ("one snapshot, outline base", [.snapshot(Self.flat())], outlineBase, false, false),
            ("one outline edit", [edit], flatBase, true, false),
            ("one update", [update], flatBase, false, false),
            ("outline edit then snapshot", [edit, .snapshot(Self.flat())], flatBase, false, true),
            ("snapshot then outline edit", [.snapshot(Self.flat()), edit], flatBase, false, true),
            ("outline edit twice", [edit, edit], flatBase, false, true),
        ]
        for (name, changes, base, sole, several) in cases {
            let target = ApplyTarget(Self.request(changes), on: base)
            #expect(target.isSoleOutlineEdit == sole, "\(name)")
            #expect((target.soleOutlineEdit != nil) == sole, "\(name)")
            #expect(target.madeSeveralChanges == several, "\(name)")
        }
    }

    @Test func queueCountFollowsItsRequests() {
        var queue = ApplyQueue<String, String, Never>()
        var idle = queue.stopIfIdle()
        #expect(queue.count == 0 && idle)
        for _ in 0..<3 { queue.append(Self.request([.snapshot(Self.flat())])) }
        idle = queue.stopIfIdle()
        #expect(queue.count == 3 && !idle)
        var taken = queue.next(coalescing: false).count
        #expect(taken == 1 && queue.count == 2)
        taken = queue.next(coalescing: true).count
        #expect(taken == 2 && queue.count == 0)
        idle = queue.stopIfIdle()
        #expect(idle)
        // The compaction branch (head > 64 and past half).
        for _ in 0..<130 { queue.append(Self.request([.snapshot(Self.flat())])) }
        for done in 1...70 {
            _ = queue.next(coalescing: false)
            #expect(queue.count == 130 - done)
        }
        queue.append(Self.request([.snapshot(Self.flat())]))
        idle = queue.stopIfIdle()
        #expect(queue.count == 61 && !idle)
        taken = queue.next(coalescing: true).count
        idle = queue.stopIfIdle()
        #expect(taken == 61 && queue.count == 0 && idle)
    }
}
