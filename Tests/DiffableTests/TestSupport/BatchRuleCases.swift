import Foundation

@testable import Diffable

/// One small batch per rule of BATCH_UPDATE_RULES.md, with the counts it is checked against: the rule,
/// the batch, the old counts and the new counts. Each breaks its rule in at least one flavor and
/// mode (the I rules in strict mode only).
enum BatchRuleCases {
    static func p(_ section: Int, _ item: Int) -> IndexPath { IndexPath(item: item, section: section) }
    static func move(_ from: IndexPath, _ to: IndexPath) -> BatchUpdate.ItemMove { .init(from: from, to: to) }
    static func sectionMove(_ from: Int, _ to: Int) -> BatchUpdate.SectionMove { .init(from: from, to: to) }

    static let all: [(rule: String, batch: BatchUpdate, oldCounts: [Int], newCounts: [Int])] = [
        ("V0", BatchUpdate(deleteItems: [IndexPath(index: 0)]), [3], [2]),
        ("E1", BatchUpdate(deleteSections: [0]), [3, 1], [3, 1]),
        ("E2", BatchUpdate(deleteItems: [p(0, 0)]), [3, 1], [3, 1]),
        // The T1 vector: a reload in a section moved up; its implied insert ignores the move.
        ("E2", BatchUpdate(moveSections: [sectionMove(1, 0)], reloadItems: [p(1, 0)]), [3, 3], [3, 3]),
        ("E3", BatchUpdate(deleteItems: [p(0, 3)]), [3], [2]),
        ("E4", BatchUpdate(deleteItems: [p(1, 0)]), [3], [2]),
        // A reload in section Int.min beside a section delete of Int.min: its shift once trapped.
        ("E4", BatchUpdate(deleteSections: [Int.min], reloadItems: [p(Int.min, 0)]), [3], [3]),
        ("E5", BatchUpdate(insertItems: [p(0, 4)]), [3], [4]),
        ("E6", BatchUpdate(insertItems: [p(2, 0)]), [3], [4]),
        ("E7", BatchUpdate(deleteSections: [2]), [3, 1], [3]),
        ("E8", BatchUpdate(insertSections: [2]), [3], [3, 1]),
        ("E9", BatchUpdate(deleteItems: [p(0, 1)], reloadItems: [p(0, 1)]), [3], [2]),
        ("E10", BatchUpdate(deleteItems: [p(0, 1)], moveItems: [move(p(0, 1), p(0, 0))]), [3], [2]),
        ("E11", BatchUpdate(insertItems: [p(0, 0)], moveItems: [move(p(0, 2), p(0, 0))]), [3], [4]),
        ("E12", BatchUpdate(moveItems: [move(p(0, 2), p(0, 0))], reloadItems: [p(0, 0)]), [3], [3]),
        ("E13", BatchUpdate(moveItems: [move(p(0, 3), p(0, 0))]), [3], [3]),
        ("E14", BatchUpdate(moveItems: [move(p(0, 2), p(0, 3))]), [3], [3]),
        ("E15", BatchUpdate(moveItems: [move(p(1, 0), p(0, 0))]), [3], [3]),
        ("E16", BatchUpdate(moveItems: [move(p(0, 1), p(0, 0)), move(p(0, 2), p(0, 0))]), [3], [3]),
        ("E17", BatchUpdate(moveItems: [move(p(0, 1), p(0, 0)), move(p(0, 1), p(0, 2))]), [3], [3]),
        ("E18", BatchUpdate(insertSections: [1], moveItems: [move(p(0, 1), p(1, 0))]), [3], [2, 1]),
        ("E19", BatchUpdate(deleteSections: [1], moveItems: [move(p(1, 0), p(0, 0))]), [3, 1], [4]),
        ("E20", BatchUpdate(deleteSections: [0], moveSections: [sectionMove(0, 0)]), [3, 1], [1]),
        ("E20", BatchUpdate(insertSections: [0], moveSections: [sectionMove(1, 0)]), [3, 1], [1, 3, 1]),
        ("E21", BatchUpdate(moveSections: [sectionMove(2, 0)]), [3, 1], [1, 3]),
        ("E21", BatchUpdate(moveSections: [sectionMove(0, 2)]), [3, 1], [1, 3]),
        ("E22", BatchUpdate(moveSections: [sectionMove(0, 1), sectionMove(0, 2)]), [3, 1, 2], [1, 3, 2]),
        ("E22", BatchUpdate(moveSections: [sectionMove(0, 1), sectionMove(2, 1)]), [3, 1, 2], [1, 3, 2]),
        ("E25", BatchUpdate(moveItems: [move(p(0, 1), p(0, 0)), move(p(0, 1), p(0, 0))]), [3], [3]),
        ("E26", BatchUpdate(deleteSections: [1], reloadItems: [p(1, 0)]), [3, 1], [3]),
        ("I1", BatchUpdate(deleteSections: [1], deleteItems: [p(1, 0)]), [3, 1], [3]),
        ("I2", BatchUpdate(insertSections: [1], insertItems: [p(1, 0)]), [3], [3, 1]),
        ("I5", BatchUpdate(moveSections: [sectionMove(1, 0)], deleteItems: [p(1, 0)]), [3, 2], [1, 3]),
        ("I7", BatchUpdate(reloadSections: [0], deleteItems: [p(0, 0)]), [3, 1], [2, 1]),
        ("I7", BatchUpdate(moveSections: [sectionMove(1, 2), sectionMove(2, 1)], reloadSections: [0]), [3, 1, 2], [3, 2, 1]),
        ("I8", BatchUpdate(deleteSections: [0], insertSections: [2], moveItems: [move(p(1, 0), p(1, 0))]), [1, 2, 1], [2, 1, 1]),
        ("I9", BatchUpdate(moveItems: [move(p(0, 2), p(0, 0))], reloadItems: [p(0, 1)]), [3], [3]),
        ("R1", BatchUpdate(reloadItems: [p(0, 1)], reconfigureItems: [p(0, 1)]), [3], [3]),
        ("R1", BatchUpdate(reconfigureItems: [p(0, 3)]), [3], [3]),
    ]
}
