internal import CDiffCore

/// A batch in the C core's terms (`dfc_batch`): section indices and packed index paths, item
/// moves as two equal-length lists. Deletes and move sources are in the old state; the rest in
/// the new one.
struct CoreBatch {
    var deleteSections: [UInt32] = []
    var insertSections: [UInt32] = []
    var moveSectionsFrom: [UInt32] = []
    var moveSectionsTo: [UInt32] = []
    var reloadSections: [UInt32] = []
    var deleteItems: [PackedIndexPath] = []
    var insertItems: [PackedIndexPath] = []
    var moveItemsFrom: [PackedIndexPath] = []
    var moveItemsTo: [PackedIndexPath] = []
    var reloadItems: [PackedIndexPath] = []
    var reconfigureItems: [PackedIndexPath] = []
}

/// One step as the core lists it: a `DFC_STEP_*` kind, where it applies and, for a move, where
/// it goes (section steps name sections in `section`).
struct CoreStep {
    enum Kind: UInt32 {
        case deleteItem = 1
        case deleteSection, moveSection, insertSection, moveItem, insertItem, reloadSection, reloadItem,
            reconfigureItem
    }
    var kind: Kind
    var at: PackedIndexPath
    var to: PackedIndexPath
}

extension DiffContext {
    /// The batch as steps in the order `dfc_batch_steps` specifies (docs/ALGORITHM.md, "Steps"):
    /// the one implementation of that order every language uses.
    /// - Parameters:
    ///   - oldCounts: rows per section before the batch (for a refresh batch, after it).
    ///   - newCounts: rows per section after the batch.
    /// - Returns: the steps, or the core's error: `.inconsistent` when the batch does not fit the
    ///   counts, `.invalidArgument` for reloads in a structural batch, `.outOfMemory`.
    /// - Complexity: O(s + k log k + r log r): s sections, k operations, r rows of the sections
    ///   that items move into or out of.
    func steps(of batch: CoreBatch, oldCounts: [UInt32], newCounts: [UInt32]) -> Result<[CoreStep], CoreError> {
        releaseHandedOverBuffers()
        var listed = dfc_steps()
        let status: Int32 = batch.withCoreBatch { raw in
            oldCounts.withUnsafeBufferPointer { old in
                newCounts.withUnsafeBufferPointer { new in
                    withUnsafeMutablePointer(to: &listed) { out in
                        dfc_batch_steps(self.raw, raw, old.baseAddress, old.count, new.baseAddress, new.count, out)
                    }
                }
            }
        }
        if let error = CoreError(status: status) { return .failure(error) }
        guard let steps = listed.steps else { return .success([]) }
        return .success(
            UnsafeBufferPointer(start: steps, count: listed.count).map { step in
                CoreStep(
                    kind: CoreStep.Kind(rawValue: step.kind) ?? .reconfigureItem,
                    at: PackedIndexPath(section: step.at.section, item: step.at.item),
                    to: PackedIndexPath(section: step.to.section, item: step.to.item))
            })
    }
}

extension CoreBatch {
    /// Runs `body` with a `dfc_batch` viewing these lists (valid only inside `body`). The lists
    /// are laid end to end in two arrays, one of section indices and one of paths, so the view
    /// needs two buffers rather than one per list.
    /// - Complexity: O(k) to lay the lists out, plus `body`.
    fileprivate func withCoreBatch<R>(_ body: (UnsafePointer<dfc_batch>) -> R) -> R {
        let sectionLists = [deleteSections, insertSections, moveSectionsFrom, moveSectionsTo, reloadSections]
        let pathLists = [deleteItems, insertItems, moveItemsFrom, moveItemsTo, reloadItems, reconfigureItems]
        let sections = Array(sectionLists.joined()), paths = Array(pathLists.joined())
        return sections.withUnsafeBufferPointer { sectionBuffer in
            // PackedIndexPath and dfc_index_path are both two UInt32s, section first.
            paths.withUnsafeBufferPointer { pathBuffer in
                pathBuffer.withMemoryRebound(to: dfc_index_path.self) { pathBuffer in
                    var sectionStart = 0, pathStart = 0
                    func nextSections(_ list: [UInt32]) -> UnsafePointer<UInt32>? {
                        defer { sectionStart += list.count }
                        return list.isEmpty ? nil : sectionBuffer.baseAddress! + sectionStart
                    }
                    func nextPaths(_ list: [PackedIndexPath]) -> UnsafePointer<dfc_index_path>? {
                        defer { pathStart += list.count }
                        return list.isEmpty ? nil : pathBuffer.baseAddress! + pathStart
                    }
                    var batch = dfc_batch()
                    batch.delete_sections = nextSections(deleteSections)
                    batch.delete_section_count = deleteSections.count
                    batch.insert_sections = nextSections(insertSections)
                    batch.insert_section_count = insertSections.count
                    batch.move_section_from = nextSections(moveSectionsFrom)
                    batch.move_section_to = nextSections(moveSectionsTo)
                    batch.move_section_count = min(moveSectionsFrom.count, moveSectionsTo.count)
                    batch.reload_sections = nextSections(reloadSections)
                    batch.reload_section_count = reloadSections.count
                    batch.delete_items = nextPaths(deleteItems)
                    batch.delete_item_count = deleteItems.count
                    batch.insert_items = nextPaths(insertItems)
                    batch.insert_item_count = insertItems.count
                    batch.move_item_from = nextPaths(moveItemsFrom)
                    batch.move_item_to = nextPaths(moveItemsTo)
                    batch.move_item_count = min(moveItemsFrom.count, moveItemsTo.count)
                    batch.reload_items = nextPaths(reloadItems)
                    batch.reload_item_count = reloadItems.count
                    batch.reconfigure_items = nextPaths(reconfigureItems)
                    batch.reconfigure_item_count = reconfigureItems.count
                    return withUnsafePointer(to: &batch) { body($0) }
                }
            }
        }
    }
}
