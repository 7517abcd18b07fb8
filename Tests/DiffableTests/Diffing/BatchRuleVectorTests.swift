import DiffableTesting
import Foundation
import Testing

@testable import Diffable

/// docs/BATCH_UPDATE_RULES.md's test vectors 1–8 (`t1…t8`) and the cases the strict checker must reject.
@Suite struct BatchRuleVectorTests {
    typealias Simulator = ListViewSimulator<String, String>
    static func p(_ section: Int, _ item: Int) -> IndexPath { IndexPath(item: item, section: section) }
    static func move(_ from: IndexPath, _ to: IndexPath) -> BatchUpdate.ItemMove { .init(from: from, to: to) }
    static let build = RandomSnapshots.build

    /// Runs `batch` from `old` to `new` and returns the violation (nil when accepted).
    static func violation(
        _ old: [(String, [String])], _ new: [(String, [String])], _ batch: BatchUpdate,
        flavor: Simulator.Flavor = .collection, mode: Simulator.Mode = .strict
    ) -> Simulator.Violation? {
        var view = Simulator(flavor: flavor, mode: mode)
        view.reloadData(build(old))
        do {
            try view.performBatchUpdates(batch, dataSourceAfter: build(new))
            return nil
        } catch {
            return error
        }
    }

    /// The diff of old → new must pass the strict simulator for both flavors.
    static func expectDiffValid(_ old: RandomSnapshots.Snapshot, _ new: RandomSnapshots.Snapshot) {
        for flavor in [Simulator.Flavor.table, .collection] {
            var view = Simulator(flavor: flavor)
            view.reloadData(old)
            #expect(throws: Never.self) { try view.apply(new.difference(from: old)) }
            #expect(view.visibleSnapshot == new.withoutPendingUpdates())
        }
    }

    @Test func t1ReloadInMovedSectionGivesTheCountException() {
        let old = [("A", ["a0", "a1", "a2"]), ("B", ["b0", "b1", "b2"])]
        let new = [("B", ["b0", "b1", "b2"]), ("A", ["a0", "a1", "a2"])]
        let batch = BatchUpdate(moveSections: [.init(from: 1, to: 0)], reloadItems: [Self.p(1, 0)])
        let error = Self.violation(old, new, batch, flavor: .table, mode: .compat)
        #expect(error?.rule == "E2")
        #expect(
            error?.message
                == "Invalid update: invalid number of rows in section 0.  The number of rows contained in an existing section after the update (3) must be equal to the number of rows contained in that section before the update (3), plus or minus the number of rows inserted or deleted from that section (0 inserted, 1 deleted) and plus or minus the number of rows moved into or out of that section (0 moved in, 0 moved out)."
        )
        #expect(Self.violation(old, new, batch) != nil)
    }

    @Test func t2ReloadOnAMoveTarget() {
        let old = [("S", ["a", "b", "c"])], new = [("S", ["c", "a", "b"])]
        let batch = BatchUpdate(moveItems: [Self.move(Self.p(0, 2), Self.p(0, 0))], reloadItems: [Self.p(0, 0)])
        #expect(Self.violation(old, new, batch, flavor: .table, mode: .compat)?.message == "Attempt to create two animations for cell")
        #expect(
            Self.violation(old, new, batch, flavor: .collection, mode: .compat)?.message
                == "attempt to perform an insert and a move to the same index path ({length = 2, path = 0 - 0})")
    }

    @Test func t3ForumBatchAndItsValidForm() {
        let old = [("S", ["A", "B", "C", "D"])], new = [("S", ["D", "A", "C"])]
        let batch = BatchUpdate(
            deleteItems: [Self.p(0, 1)], moveItems: [Self.move(Self.p(0, 0), Self.p(0, 1)), Self.move(Self.p(0, 3), Self.p(0, 0))],
            reloadItems: [Self.p(0, 2)])
        #expect(Self.violation(old, new, batch, mode: .compat)?.rule == "E11")
        var target = Self.build(new)
        target.reloadItems(["C"])
        let difference = target.difference(from: Self.build(old))
        #expect(
            difference.batches == [
                BatchUpdate(deleteItems: [Self.p(0, 1)], moveItems: [Self.move(Self.p(0, 3), Self.p(0, 0))]),
                BatchUpdate(reloadItems: [Self.p(0, 2)]),
            ])
        Self.expectDiffValid(Self.build(old), target)
    }

    @Test func t4HardestCaseSingleBatchFormsAreRejectedAndTheDiffIsValid() {
        let old = [("1", ["1111"]), ("2", ["2222"])], new = [("2", ["0"]), ("1", [String]())]
        let forms = [
            BatchUpdate(moveSections: [.init(from: 1, to: 0)], deleteItems: [Self.p(0, 0), Self.p(1, 0)], insertItems: [Self.p(0, 0)]),
            BatchUpdate(moveSections: [.init(from: 1, to: 0)], deleteItems: [Self.p(0, 0)], reloadItems: [Self.p(1, 0)]),
        ]
        for form in forms { #expect(Self.violation(old, new, form) != nil, "\(form)") }
        Self.expectDiffValid(Self.build(old), Self.build(new))
        let structural = Self.build(new).difference(from: Self.build(old)).structuralBatch
        #expect(structural?.moveSections.isEmpty == true)  // the touched moved section became delete + insert
    }

    @Test func t5TrickyTransitionsRoundTrip() {
        let cases: [([(String, [String])], [(String, [String])])] = [
            (
                [("section 4", ["10", "11", "12"]), ("section 9", ["25", "26", "27"])],
                [("section 9", ["11", "26", "27"]), ("section 4", ["10", "12"])]
            ),
            (
                [
                    ("section 10", ["26"]), ("section 7", ["5", "29"]), ("section 1", ["14"]), ("section 5", ["16"]),
                    ("section 4", []), ("section 8", ["3", "15", "19", "23"]), ("section 3", ["20"]),
                ],
                [
                    ("section 10", ["26"]), ("section 1", ["14"]), ("section 9", ["3"]), ("section 5", ["16", "8"]),
                    ("section 8", ["15", "19", "23"]), ("section 3", ["20"]), ("Section 2", ["7"]),
                ]
            ),
            (
                [
                    ("section 4", ["5"]), ("section 6", ["20", "14"]), ("section 9", []), ("section 2", ["2", "26"]),
                    ("section 8", ["23"]), ("section 10", ["8", "18", "13"]),
                    ("section 1", ["28", "25", "6", "11", "10", "29", "24", "7", "19"]),
                ],
                [
                    ("section 4", ["5"]), ("section 6", ["20", "14"]), ("section 9", ["16"]), ("section 7", ["17", "15", "4"]),
                    ("section 2", ["2", "26", "23"]), ("section 8", []), ("section 10", ["8", "18", "13"]),
                    ("section 1", ["28", "25", "6", "11", "10", "29", "24", "7", "19"]),
                ]
            ),
        ]
        for (old, new) in cases {
            Self.expectDiffValid(Self.build(old), Self.build(new))
            Self.expectDiffValid(Self.build(new), Self.build(old))
        }
    }

    @Test func t6MoveIntoInsertedSection() {
        let old = [("A", ["x"])], new = [("B", ["x"]), ("A", [String]())]
        let naive = BatchUpdate(insertSections: [0], moveItems: [Self.move(Self.p(0, 0), Self.p(0, 0))])
        #expect(Self.violation(old, new, naive, mode: .compat)?.message == "cannot move an item into a newly inserted section (0)")
        #expect(
            Self.violation(old, new, naive, flavor: .table, mode: .compat)?.message == "cannot move a row into a newly inserted section (0)"
        )
        let diff = Self.build(new).difference(from: Self.build(old)).structuralBatch
        #expect(diff == BatchUpdate(insertSections: [0], deleteItems: [Self.p(0, 0)]))
        Self.expectDiffValid(Self.build(old), Self.build(new))
    }

    @Test func t7MoveOutOfDeletedSection() {
        let old = [("A", ["x"]), ("B", [String]())], new = [("B", ["x"])]
        let naive = BatchUpdate(deleteSections: [0], moveItems: [Self.move(Self.p(0, 0), Self.p(0, 0))])
        #expect(Self.violation(old, new, naive, mode: .compat)?.message == "cannot move an item from a deleted section (0)")
        #expect(Self.violation(old, new, naive, flavor: .table, mode: .compat)?.message == "cannot move a row from a deleted section")
        #expect(
            Self.build(new).difference(from: Self.build(old)).structuralBatch
                == BatchUpdate(deleteSections: [0], insertItems: [Self.p(0, 0)]))
        Self.expectDiffValid(Self.build(old), Self.build(new))
    }

    @Test func t8ReloadGivenANewIndex() {
        let old = [("S", ["a", "b"])], new = [("S", ["x", "a", "b"])]
        let batch = BatchUpdate(insertItems: [Self.p(0, 0)], reloadItems: [Self.p(0, 2)])
        #expect(
            Self.violation(old, new, batch, flavor: .table, mode: .compat)?.message
                == "attempt to delete row 2 from section 0 which only contains 2 rows before the update")
    }

    /// docs/BATCH_UPDATE_RULES.md, "Cases the strict checker must reject": each case with the rule that catches it (strict mode unless noted).
    @Test(
        arguments: [
            (
                "E1 section count", [("A", ["a"])], [("A", ["a"]), ("B", [])], BatchUpdate(), "E1",
                "Invalid update: invalid number of sections.  The number of sections contained in the collection view after the update (2) must be equal to the number of sections contained in the collection view before the update (1), plus or minus the number of sections inserted or deleted (0 inserted, 0 deleted)."
            ),
            ("E2 row count", [("A", ["a"])], [("A", ["a", "b"])], BatchUpdate(), "E2", nil),
            (
                "E3 delete out of bounds", [("A", ["a"])], [("A", [])], BatchUpdate(deleteItems: [p(0, 1)]), "E3",
                "attempt to delete item 1 from section 0 which only contains 1 items before the update"
            ),
            ("E4 delete in missing section", [("A", ["a"])], [("A", ["a"])], BatchUpdate(deleteItems: [p(3, 0)]), "E4", nil),
            (
                "E5 insert out of bounds", [("A", [])], [("A", ["a"])], BatchUpdate(insertItems: [p(0, 1)]), "E5",
                "attempt to insert item 1 into section 0, but there are only 1 items in section 0 after the update"
            ),
            ("E6 insert in missing section", [("A", [])], [("A", ["a"])], BatchUpdate(insertItems: [p(2, 0)]), "E6", nil),
            (
                "E7 delete missing section", [("A", [])], [], BatchUpdate(deleteSections: [1]), "E7",
                "attempt to delete section 1, but there are only 1 sections before the update"
            ),
            (
                "E8 insert beyond sections", [], [("A", [])], BatchUpdate(insertSections: [1]), "E8",
                "attempt to insert section 1 but there are only 1 sections after the update"
            ),
            (
                "E9 delete + reload", [("A", ["a", "b"])], [("A", ["b"])], BatchUpdate(deleteItems: [p(0, 0)], reloadItems: [p(0, 0)]),
                "E9",
                "attempt to delete and reload the same index path ({length = 2, path = 0 - 0})"
            ),
            (
                "E10 delete + move", [("A", ["a", "b"])], [("A", ["b"])],
                BatchUpdate(deleteItems: [p(0, 0)], moveItems: [move(p(0, 0), p(0, 0))]), "E10", nil
            ),
            (
                "E11 insert + move", [("A", ["a", "b"])], [("A", ["x", "b", "a"])],
                BatchUpdate(insertItems: [p(0, 0)], moveItems: [move(p(0, 0), p(0, 0))]), "E11", nil
            ),
            (
                "E13 move source out of bounds", [("A", ["a"])], [("A", ["a"])], BatchUpdate(moveItems: [move(p(0, 3), p(0, 0))]), "E13",
                "attempt to move index path ({length = 2, path = 0 - 3}) that does not exist - there are only 1 items in section 0 before the update"
            ),
            ("E14 move target out of bounds", [("A", ["a"])], [("A", ["a"])], BatchUpdate(moveItems: [move(p(0, 0), p(0, 4))]), "E14", nil),
            ("E15 move from missing section", [("A", ["a"])], [("A", ["a"])], BatchUpdate(moveItems: [move(p(2, 0), p(0, 0))]), "E15", nil),
            (
                "E16 two moves to one target", [("A", ["a", "b"])], [("A", ["b", "a"])],
                BatchUpdate(moveItems: [move(p(0, 0), p(0, 1)), move(p(0, 1), p(0, 1))]), "E16",
                "attempt to move both item at index path {length = 2, path = 0 - 0} and {length = 2, path = 0 - 1} to {length = 2, path = 0 - 1}"
            ),
            (
                "E17 one source moved twice", [("A", ["a", "b"])], [("A", ["b", "a"])],
                BatchUpdate(moveItems: [move(p(0, 0), p(0, 0)), move(p(0, 0), p(0, 1))]), "E17", nil
            ),
            (
                "E20 delete + move section", [("A", []), ("B", [])], [("B", [])],
                BatchUpdate(deleteSections: [0], moveSections: [.init(from: 0, to: 0)]), "E20",
                "attempt to perform a delete and a move from the same section (0)"
            ),
            ("E21 move missing section", [("A", [])], [("A", [])], BatchUpdate(moveSections: [.init(from: 4, to: 0)]), "E21", nil),
            (
                "E22 two section moves to one target", [("A", []), ("B", [])], [("B", []), ("A", [])],
                BatchUpdate(moveSections: [.init(from: 0, to: 1), .init(from: 1, to: 1)]), "E22", nil
            ),
            ("E25 duplicate delete", [("A", ["a", "b"])], [("A", [])], BatchUpdate(deleteItems: [p(0, 0), p(0, 0), p(0, 1)]), "E25", nil),
            (
                "I1 delete inside deleted section", [("A", ["a"]), ("B", [])], [("B", [])],
                BatchUpdate(deleteSections: [0], deleteItems: [p(0, 0)]), "I1", nil
            ),
            ("I2 insert inside inserted section", [], [("A", ["a"])], BatchUpdate(insertSections: [0], insertItems: [p(0, 0)]), "I2", nil),
            (
                "I5 insert into moved section", [("A", []), ("B", [])], [("B", ["x"]), ("A", [])],
                BatchUpdate(moveSections: [.init(from: 1, to: 0)], insertItems: [p(0, 0)]), "I5", nil
            ),
            (
                "I7 reload section + move", [("A", ["a"]), ("B", []), ("C", [])], [("A", ["a"]), ("C", []), ("B", [])],
                BatchUpdate(moveSections: [.init(from: 2, to: 1)], reloadSections: [0]), "I7", nil
            ),
            (
                "I8 raw-index move conflict", [("X", []), ("A", ["a"]), ("B", [])], [("A", []), ("B", ["a"])],
                BatchUpdate(deleteSections: [0], moveItems: [move(p(1, 0), p(1, 0))]), "E2", nil
            ),
            (
                "I9 reload next to a move", [("A", ["a", "b", "c"])], [("A", ["b", "a", "c"])],
                BatchUpdate(moveItems: [move(p(0, 0), p(0, 1))], reloadItems: [p(0, 2)]), "I9", nil
            ),
            (
                "R1 reconfigure in a structural batch", [("A", ["a", "b"])], [("A", ["a"])],
                BatchUpdate(deleteItems: [p(0, 1)], reconfigureItems: [p(0, 0)]), "R1", nil
            ),
            (
                "V9 wrong move (counts pass)", [("A", ["a", "b", "c"])], [("A", ["c", "a", "b"])],
                BatchUpdate(moveItems: [move(p(0, 1), p(0, 0))]), "V9", nil
            ),
        ] as [(String, [(String, [String])], [(String, [String])], BatchUpdate, String, String?)])
    func strictSimulatorRejects(
        _ name: String, _ old: [(String, [String])], _ new: [(String, [String])],
        _ batch: BatchUpdate, _ rule: String, _ message: String?
    ) {
        let error = Self.violation(old, new, batch)
        #expect(error?.rule == rule, "\(name): \(String(describing: error))")
        if let message { #expect(error?.message == message, "\(name)") }
    }

    @Test func compatModeDropsRedundantOperations() {
        // I1/I2: UIKit drops item operations inside deleted and inserted sections; E24: exact duplicate moves.
        #expect(
            Self.violation(
                [("A", ["a"]), ("B", [])], [("B", [])], BatchUpdate(deleteSections: [0], deleteItems: [Self.p(0, 0)]), mode: .compat) == nil
        )
        #expect(Self.violation([], [("A", ["a"])], BatchUpdate(insertSections: [0], insertItems: [Self.p(0, 0)]), mode: .compat) == nil)
        #expect(
            Self.violation(
                [("A", ["a", "b"])], [("A", ["b", "a"])],
                BatchUpdate(moveItems: [Self.move(Self.p(0, 0), Self.p(0, 1)), Self.move(Self.p(0, 0), Self.p(0, 1))]), mode: .compat)
                == nil)
    }

    @Test func batchBeforeLoadIsRejected() {
        var view = Simulator()
        #expect(throws: Simulator.Violation(rule: "B3", message: "batch update before the view loaded its data (reload first)")) {
            try view.performBatchUpdates(BatchUpdate(), dataSourceAfter: Self.build([]))
        }
    }

    @Test func staleContentIsCaught() {
        let old = Self.build([("A", ["a", "b"])])
        var new = old
        new.reloadItems(["a"])
        // A difference whose refresh batch was lost leaves "a" stale.
        let difference = new.difference(from: old)
        let broken = SnapshotDifference(
            old: old, new: new, batches: [], oldItemToNew: difference.oldItemToNew,
            newItemToOld: difference.newItemToOld, itemsInPlace: difference.itemsInPlace,
            oldSectionToNew: Array(difference.oldSectionToNew),
            newSectionToOld: Array(difference.newSectionToOld), oldStarts: difference.oldStarts,
            newStarts: difference.newStarts)
        var view = Simulator()
        view.reloadData(old)
        #expect(throws: Simulator.Violation(rule: "V9", message: "stale content: item \"a\" was not refreshed")) { try view.apply(broken) }
        view.reloadData(old)
        #expect(throws: Never.self) { try view.apply(difference) }
    }
}
