import Diffable
import DiffableTools
import Foundation

/// `diffable bench --suite app`: what an app pays per change at 10^2–10^4 items, through the
/// public API, with the identifier types apps use: `Int`, `String`, `UUID`, a model
/// struct matched by its `UUID` id, a small `Hashable` struct and an enum (types the library
/// was not compiled for, as an app's own are), and the last three keyed by their own
/// ``IdentifierKeyConvertible`` keys (the model struct ``KeyedByID``).
///
/// The app's model is its sections' identifiers (sections of 100, ``SectionedScenario/churn``:
/// 10% of the items deleted, inserted or moved, across sections too). One change is:
/// 1. build + diff: build the new snapshot from the model and diff it against the previous
///    one (built before the timing, as the data source holds it), against building the new
///    plain model (``PlainSnapshotModel``) and diffing it through the indexes the previous
///    plain model already holds (also built before the timing), and against flattening the
///    model into one array and running Swift's `difference(from:).inferringMoves()`, which
///    has nothing to keep between changes and so hashes both arrays, in the same run;
/// 2. build + apply: build the snapshot and apply it to a ``DiffableDataSource`` driving a
///    headless view (section counts and the first screen's cells asked before and after each
///    batch), the view on the bench's own thread as an app's main thread. Applies alternate
///    between the two snapshots. The struct's data source matches items by `id`, 1% of the
///    values changing (reconfigured cells).
///
/// The new identifiers are hashed inside every timing, on every side: as the snapshot or the
/// plain model is built, and by `difference(from:)`. Small n repeat each change so a run
/// lasts ~10^5 items.
enum AppBench {
    /// The identifier types of the suite.
    enum IDKind: String, CaseIterable {
        case int = "Int"
        case string = "String"
        case uuid = "UUID"
        case item = "Item"
        case keyedItem = "KeyedItem"
        case `struct` = "Struct"
        case `enum` = "Enum"
        case keyedStruct = "KeyedStruct"
        case keyedEnum = "KeyedEnum"
    }

    /// A small identifier struct of an app's own (three fields, synthesized `Hashable`).
    struct RowID: Hashable, Sendable {
        var feed: Int32
        var kind: Int32
        var serial: Int
    }

    /// An identifier enum of an app's own (payloads, synthesized `Hashable`).
    enum RowRef: Hashable, Sendable {
        case post(Int)
        case ad(Int)
    }

    /// ``RowID`` keyed by its own ``IdentifierKeyConvertible/identifierKey``: the same
    /// values and `==`, without `Hasher`.
    struct KeyedRowID: IdentifierKeyConvertible, Sendable {
        var row: RowID
        var identifierKey: UInt64 {
            UInt64(bitPattern: Int64(row.serial)) ^ UInt64(UInt32(bitPattern: row.feed)) << 32 ^ UInt64(UInt32(bitPattern: row.kind)) << 48
        }
    }

    /// ``RowRef`` keyed by its own ``IdentifierKeyConvertible/identifierKey``: the payload and
    /// the case in one word (`.post(n)` and `.ad(n)` differ in the low bit).
    struct KeyedRowRef: IdentifierKeyConvertible, Sendable {
        var ref: RowRef
        var identifierKey: UInt64 {
            switch ref {
            case .post(let serial): UInt64(bitPattern: Int64(serial)) << 1
            case .ad(let serial): UInt64(bitPattern: Int64(serial)) << 1 | 1
            }
        }
    }

    /// An app's model value, matched by `id`.
    struct Item: Hashable, Identifiable, Sendable {
        var id: UUID
        var title: String
        var isFavorite: Bool
    }

    /// ``Item`` keyed by its `id` (``KeyedByID``): the same fields and `==`, without `Hasher`
    /// over every field.
    struct KeyedItem: Hashable, KeyedByID, Sendable {
        var id: UUID
        var title: String
        var isFavorite: Bool
    }

    /// Items a timed run covers at least: small n repeat the change.
    static let itemsPerRun = 100_000

    /// A phase run untimed for instruction counts (`--app-profile PHASE:N`): N changes of
    /// Diffable's side only, after the same set-up as a timed row.
    struct Profile {
        enum Phase: String {
            case buildDiff = "build-diff"
            /// Build + diff, then every list of the difference read as the timed "read" row does.
            case buildDiffRead = "build-diff-read"
            case apply
            /// The apply an app matching by hand makes: a snapshot of the values' `id`s, the
            /// `id`s whose values changed reconfigured, applied by identity (for kinds without
            /// changed values, the same as `apply` on their identifiers).
            case applyIDs = "apply-ids"
        }
        var phase: Phase
        var changes: Int

        /// Parses `PHASE:N`.
        init(parsing text: String) throws {
            let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, let phase = Phase(rawValue: parts[0]), let changes = Int(parts[1]), changes >= 0 else {
                throw BenchError(
                    "--app-profile: expected build-diff:N, build-diff-read:N, apply:N or apply-ids:N with N ≥ 0 (got \(text))")
            }
            (self.phase, self.changes) = (phase, changes)
        }
    }

    /// The suite's three rows for `kind` at `count` items; with `profile`, no rows: that
    /// phase's changes only, untimed.
    static func measure(kind: IDKind, count: Int, runs: Int, seed: UInt64, log: BenchLog, profile: Profile? = nil) -> [BenchRow] {
        let label = "app \(kind.rawValue) n=\(BenchSizes.label(count))"
        log.step(label, phase: "inputs")
        let layouts = SectionedScenario.churn.layouts(itemCount: count, seed: seed &+ UInt64(count))
        let largest = max(count, (layouts.new.lazy.compactMap { $0.max() }.max() ?? 0) + 1)
        let context = Context(kind: kind, layouts: layouts, runs: runs, label: label, log: log, profile: profile)
        switch kind {
        case .int: return context.rows(values: Array(0..<largest))
        case .string: return context.rows(values: (0..<largest).map(BenchKeys.name))
        case .uuid: return context.rows(values: (0..<largest).map(uuid))
        case .struct: return context.rows(values: (0..<largest).map(rowID))
        case .enum: return context.rows(values: (0..<largest).map(rowRef))
        case .keyedStruct: return context.rows(values: (0..<largest).map { KeyedRowID(row: rowID($0)) })
        case .keyedEnum: return context.rows(values: (0..<largest).map { KeyedRowRef(ref: rowRef($0)) })
        case .item:
            let (items, edited) = modelValues(largest, seed: seed)
            return context.rows(values: items, edited: edited)
        case .keyedItem:
            let (items, edited) = modelValues(largest, seed: seed)
            let keyed = { (item: Item) in KeyedItem(id: item.id, title: item.title, isFavorite: item.isFavorite) }
            return context.rows(values: items.map(keyed), edited: edited.map(keyed))
        }
    }

    /// The model values of ids `0..<count`, and the same with 1% of them changed under a kept
    /// id (the data source reconfigures their cells).
    static func modelValues(_ count: Int, seed: UInt64) -> (values: [Item], edited: [Item]) {
        let items = (0..<count).map { Item(id: uuid($0), title: "Item \($0)", isFavorite: $0 % 7 == 0) }
        var generator = SplitMix64(seed: seed &+ 17)
        let edited = items.map { item in
            var item = item
            if Int.random(in: 0..<100, using: &generator) == 0 { item.title += " (edited)" }
            return item
        }
        return (items, edited)
    }

    /// The struct identifier of model item `id`.
    static func rowID(_ id: Int) -> RowID { RowID(feed: Int32(id % 3), kind: Int32(id % 5), serial: BenchKeys.scrambled(id)) }

    /// The enum identifier of model item `id`.
    static func rowRef(_ id: Int) -> RowRef { id % 10 == 0 ? .ad(id) : .post(id) }

    /// A UUID made from `id` by a bijection, so every run has the same ids and they look random.
    static func uuid(_ id: Int) -> UUID {
        let high = UInt64(bitPattern: Int64(BenchKeys.scrambled(id))), low = UInt64(bitPattern: Int64(BenchKeys.scrambled(~id)))
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { raw in
            raw.storeBytes(of: high, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: low, toByteOffset: 8, as: UInt64.self)
        }
        return UUID(uuid: bytes)
    }

    private struct Context {
        var kind: IDKind
        var layouts: SectionedScenario.Layouts
        var runs: Int
        var label: String
        var log: BenchLog
        var profile: Profile?

        var itemCount: Int { layouts.old.reduce(0) { $0 + $1.count } }
        var repeats: Int { max(1, AppBench.itemsPerRun / max(itemCount, 1)) }

        /// Both measurements on the model `values` (the new model's values from `edited`, when given).
        func rows<Value: AppModelValue>(values: [Value], edited: [Value]? = nil) -> [BenchRow] {
            let old = layouts.old.map { $0.map { values[$0] } }, new = layouts.new.map { $0.map { (edited ?? values)[$0] } }
            if let profile {
                run(profile, old: old, new: new)
                return []
            }
            let diffs = [buildAndDiff(old: old, new: new), buildDiffAndRead(old: old, new: new)]
            guard edited != nil else { return diffs + [buildAndApply(old: old, new: new)] }
            // Matching by `id` beside what it replaces, both on the same view work (two
            // batches, the same cells asked): the ratio is what matching by `id` itself costs.
            let byHand = buildAndApplyIDs(old: old, new: new)
            var byID = buildAndApply(old: old, new: new)
            byID.notes.append(
                "\(label): \(String(format: "%.2f", byID.milliseconds / max(byHand.milliseconds, 1e-9)))× the ids applied by identity, the changed ones reconfigured"
            )
            return diffs + [byID, byHand]
        }

        /// `profile`'s changes, Diffable's side only, as the timed rows make them.
        private func run<Value: AppModelValue>(_ profile: Profile, old: [[Value]], new: [[Value]]) {
            var checksum = 0
            switch profile.phase {
            case .buildDiff:
                let before = AppBench.snapshot(layouts.oldSections, old, Value.identifiers)
                for _ in 0..<profile.changes {
                    checksum &+= AppBench.snapshot(layouts.newSections, new, Value.identifiers).difference(from: before).movedItemCount
                }
            case .buildDiffRead:
                let before = AppBench.snapshot(layouts.oldSections, old, Value.identifiers)
                for _ in 0..<profile.changes {
                    checksum &+= Self.readEveryList(AppBench.snapshot(layouts.newSections, new, Value.identifiers).difference(from: before))
                }
            case .apply:
                let (dataSource, _) = makeDataSource(old: old)
                for change in 0..<profile.changes {
                    dataSource.apply(snapshot(change % 2 == 0, old: old, new: new), completion: nil)
                }
                checksum = dataSource.snapshot().numberOfItems
            case .applyIDs:
                let (dataSource, _) = makeIDDataSource(old: old)
                let changed = changedIDs(old: old, new: new)
                for change in 0..<profile.changes {
                    dataSource.apply(idSnapshot(change % 2 == 0, old: old, new: new, reconfiguring: changed), completion: nil)
                }
                checksum = dataSource.snapshot().numberOfItems
            }
            if checksum == -1 { log.note("") }  // keeps the results alive
        }

        private func row(_ scenario: String, _ seconds: Double) -> BenchRow {
            var row = BenchRow(
                suite: "app", scenario: scenario, keys: kind.rawValue, count: itemCount, milliseconds: seconds / Double(repeats) * 1000,
                runs: runs)
            row.sections = layouts.old.count
            row.repeats = repeats > 1 ? repeats : nil
            return row
        }

        /// Build the new snapshot (plain model, flat array) of the model's identifiers and diff
        /// it against the old one.
        private func buildAndDiff<Value: AppModelValue>(old: [[Value]], new: [[Value]]) -> BenchRow {
            var checksum = 0
            log.step(label, phase: "build + diff")
            let before = AppBench.snapshot(layouts.oldSections, old, Value.identifiers)
            let diffable = Measure.median(runs: runs) {
                for _ in 0..<repeats {
                    checksum &+= AppBench.snapshot(layouts.newSections, new, Value.identifiers).difference(from: before).movedItemCount
                }
            }
            log.step(label, phase: "plain Swift")
            let plainBefore = PlainSnapshotModel(sections: layouts.oldSections, items: old.map(Value.identifiers))
            let plain = Measure.median(runs: runs) {
                for _ in 0..<repeats {
                    let after = PlainSnapshotModel(sections: layouts.newSections, items: new.map(Value.identifiers))
                    checksum &+= plainBefore.difference(to: after).moves
                }
            }
            log.step(label, phase: "difference(from:)")
            let flatBefore = Value.identifiers(Array(old.joined()))
            let swift = Measure.median(runs: runs) {
                for _ in 0..<repeats {
                    checksum &+= FlatBench.swiftDifference(old: flatBefore, new: Value.identifiers(Array(new.joined())))
                }
            }
            var row = row("build + diff", diffable)
            row.baselineMilliseconds = plain / Double(repeats) * 1000
            row.baselineRuns = runs
            row.swiftDifferenceMilliseconds = swift / Double(repeats) * 1000
            row.swiftDifferenceRuns = runs
            row.identifiersHashed = "inside: the new ones on every side (difference(from:) both lists)"
            if checksum == -1 { log.note("") }  // keeps the results alive
            return row
        }

        /// Build + diff as ``buildAndDiff(old:new:)``, then read every list of the difference as
        /// `IndexPath`s (`[Int]` for sections), as an app hands them to its view.
        private func buildDiffAndRead<Value: AppModelValue>(old: [[Value]], new: [[Value]]) -> BenchRow {
            var checksum = 0
            log.step(label, phase: "build + diff + read")
            let before = AppBench.snapshot(layouts.oldSections, old, Value.identifiers)
            let seconds = Measure.median(runs: runs) {
                for _ in 0..<repeats {
                    checksum &+= Self.readEveryList(AppBench.snapshot(layouts.newSections, new, Value.identifiers).difference(from: before))
                }
            }
            var row = row("build + diff, every list read as IndexPath", seconds)
            row.identifiersHashed = "inside (Diffable only)"
            if checksum == -1 { log.note("") }  // keeps the results alive
            return row
        }

        /// Reads every list of every batch of `difference` as an app hands them to its view
        /// (`IndexPath`s, `[Int]` for sections); returns their total length. Not inlined, so
        /// that a profile's inclusive count of it is the reading alone.
        @inline(never)
        private static func readEveryList<Section, Item>(_ difference: SnapshotDifference<Section, Item>) -> Int {
            var checksum = 0
            for batch in difference.batches {
                checksum &+= batch.deleteSections.count &+ batch.insertSections.count &+ batch.moveSections.count
                checksum &+= batch.reloadSections.count &+ batch.deleteItems.count &+ batch.insertItems.count
                checksum &+= batch.moveItems.count &+ batch.reloadItems.count &+ batch.reconfigureItems.count
            }
            return checksum
        }

        /// A data source on a headless view whose context is this thread (an apply made here
        /// runs to completion before returning), showing the old model.
        private func makeDataSource<Value: AppModelValue>(old: [[Value]]) -> (
            DiffableDataSource<Int, Value, Value>, FirstScreenListView<Value>
        ) {
            let view = FirstScreenListView<Value>(checking: false)
            let here = ViewExecutor(enqueue: { $0() }, isCurrent: { true })
            let dataSource: DiffableDataSource<Int, Value, Value> =
                if let byID = AppBench.matchingByID(view: view, executor: here) { byID } else {
                    DiffableDataSource(view: view, executor: here) { _, value in value }
                }
            dataSource.applySnapshotUsingReloadData(AppBench.snapshot(layouts.oldSections, old) { $0 }, completion: nil)
            return (dataSource, view)
        }

        /// The snapshot of the values of the new model (`toNew`) or of the old one, as an app builds it.
        private func snapshot<Value: AppModelValue>(_ toNew: Bool, old: [[Value]], new: [[Value]]) -> DiffableDataSourceSnapshot<Int, Value>
        {
            toNew ? AppBench.snapshot(layouts.newSections, new) { $0 } : AppBench.snapshot(layouts.oldSections, old) { $0 }
        }

        /// Build a snapshot and apply it, alternating between the two, through a data source
        /// whose view runs on this thread.
        private func buildAndApply<Value: AppModelValue>(old: [[Value]], new: [[Value]]) -> BenchRow {
            let (dataSource, view) = makeDataSource(old: old)
            let seconds = timeAlternatingApplies(to: dataSource) { snapshot($0, old: old, new: new) }
            var row = row("build + apply (headless view)", seconds)
            row.identifiersHashed = "inside (Diffable only)"
            row.notes.append("\(label): \(view.batchCount) batches applied")
            if Value.self == Item.self || Value.self == KeyedItem.self {
                row.scenario = "build + apply (headless view, matched by id, 1% reconfigured)"
            }
            return row
        }

        /// The median time of one apply through `dataSource`, the applies alternating between
        /// the new model (first) and the old one, each snapshot made by `snapshot(toNew)` inside
        /// the timing; traps when the last apply had not completed before returning (the
        /// view's executor is this thread).
        /// - Complexity: `runs` × `repeats` applies.
        private func timeAlternatingApplies<Item: Hashable & Sendable, Cell>(
            to dataSource: DiffableDataSource<Int, Item, Cell>, _ snapshot: (Bool) -> DiffableDataSourceSnapshot<Int, Item>
        ) -> Double {
            var toNew = true
            let seconds = Measure.median(runs: runs) {
                for _ in 0..<repeats {
                    dataSource.apply(snapshot(toNew), completion: nil)
                    toNew.toggle()
                }
            }
            precondition(
                dataSource.snapshot().numberOfItems == (toNew ? layouts.old : layouts.new).reduce(0) { $0 + $1.count },
                "bench app: an apply did not complete before returning")
            return seconds
        }

        /// A data source of the `id`s of the model values, matched by identity, on a headless
        /// view whose context is this thread, showing the old model: what an app that
        /// snapshots `id`s holds.
        private func makeIDDataSource<Value: AppModelValue>(old: [[Value]]) -> (
            DiffableDataSource<Int, Value.AppID, Value.AppID>, FirstScreenListView<Value.AppID>
        ) {
            let view = FirstScreenListView<Value.AppID>(checking: false)
            let here = ViewExecutor(enqueue: { $0() }, isCurrent: { true })
            let dataSource = DiffableDataSource<Int, Value.AppID, Value.AppID>(view: view, executor: here) { _, id in id }
            dataSource.applySnapshotUsingReloadData(AppBench.snapshot(layouts.oldSections, old, Value.identifiers), completion: nil)
            return (dataSource, view)
        }

        /// The `id`s in both models whose values differ, in the new model's order: the ones an
        /// app matching by hand reconfigures (found here, untimed, as if its model knew them).
        /// - Complexity: O(n).
        private func changedIDs<Value: AppModelValue>(old: [[Value]], new: [[Value]]) -> [Value.AppID] {
            let oldValues = Array(old.joined()), newValues = Array(new.joined())
            let oldByID = Dictionary(zip(Value.identifiers(oldValues), oldValues)) { first, _ in first }
            return zip(Value.identifiers(newValues), newValues).compactMap { id, value in
                oldByID[id].map { $0 != value } == true ? id : nil
            }
        }

        /// The snapshot of the `id`s of the new model (`toNew`) or of the old one, `changed`
        /// reconfigured, as an app matching by hand builds it.
        private func idSnapshot<Value: AppModelValue>(
            _ toNew: Bool, old: [[Value]], new: [[Value]], reconfiguring changed: [Value.AppID]
        ) -> DiffableDataSourceSnapshot<Int, Value.AppID> {
            var snapshot =
                toNew
                ? AppBench.snapshot(layouts.newSections, new, Value.identifiers)
                : AppBench.snapshot(layouts.oldSections, old, Value.identifiers)
            snapshot.reconfigureItems(changed)
            return snapshot
        }

        /// What the matched-by-`id` apply replaces: build a snapshot of the values' `id`s,
        /// reconfigure those whose values changed, and apply it by identity, alternating
        /// between the two models. The cell provider hands over the `id` (an app would look its
        /// value up too: left out, to the by-hand side's favour).
        private func buildAndApplyIDs<Value: AppModelValue>(old: [[Value]], new: [[Value]]) -> BenchRow {
            let (dataSource, view) = makeIDDataSource(old: old)
            let changed = changedIDs(old: old, new: new)
            let seconds = timeAlternatingApplies(to: dataSource) { idSnapshot($0, old: old, new: new, reconfiguring: changed) }
            var row = row("build + apply (headless view, the ids by identity, the changed ones reconfigured)", seconds)
            row.identifiersHashed = "inside (Diffable only)"
            row.notes.append("\(label): \(view.batchCount) batches applied, \(changed.count) ids reconfigured an apply")
            return row
        }
    }

    /// A data source matching items by `id` when `Value` is one of the suite's model values, else nil.
    private static func matchingByID<Value: Hashable & Sendable>(view: FirstScreenListView<Value>, executor: ViewExecutor)
        -> DiffableDataSource<Int, Value, Value>?
    {
        matchingByID(view: view, executor: executor, as: Item.self) ?? matchingByID(view: view, executor: executor, as: KeyedItem.self)
    }

    /// A data source matching `Model` values by `id` when `Value` is `Model`, else nil.
    private static func matchingByID<Value: Hashable & Sendable, Model: Hashable & Identifiable & Sendable>(
        view: FirstScreenListView<Value>, executor: ViewExecutor, as _: Model.Type
    ) -> DiffableDataSource<Int, Value, Value>? where Model.ID: Sendable {
        guard let view = view as? FirstScreenListView<Model> else { return nil }
        let dataSource = DiffableDataSource<Int, Model, Model>(view: view, executor: executor, matchingItemsByID: .reconfigure) { _, item in
            item
        }
        return dataSource as? DiffableDataSource<Int, Value, Value>
    }

    /// The snapshot of `sections` holding what `identify` gives of each section's model
    /// values, as an app builds it from its model.
    /// - Complexity: O(n + s) plus `identify`.
    static func snapshot<Value, ID: Hashable>(_ sections: [Int], _ model: [[Value]], _ identify: ([Value]) -> [ID])
        -> DiffableDataSourceSnapshot<Int, ID>
    {
        var snapshot = DiffableDataSourceSnapshot<Int, ID>()
        snapshot.appendSections(sections)
        for (section, values) in zip(sections, model) { snapshot.appendItems(identify(values), toSection: section) }
        return snapshot
    }
}

/// A model value of the app suite and the identifiers a snapshot of it holds: the value itself,
/// or (for the struct) its `id`.
protocol AppModelValue: Hashable, Sendable {
    associatedtype AppID: Hashable & Sendable
    /// The identifiers of `values`, in order. - Complexity: O(values), O(1) when they are their own.
    static func identifiers(_ values: [Self]) -> [AppID]
}

extension AppModelValue where AppID == Self {
    static func identifiers(_ values: [Self]) -> [Self] { values }
}

extension Int: AppModelValue { typealias AppID = Int }
extension String: AppModelValue { typealias AppID = String }
extension UUID: AppModelValue { typealias AppID = UUID }
extension AppBench.RowID: AppModelValue { typealias AppID = Self }
extension AppBench.RowRef: AppModelValue { typealias AppID = Self }
extension AppBench.KeyedRowID: AppModelValue { typealias AppID = Self }
extension AppBench.KeyedRowRef: AppModelValue { typealias AppID = Self }
extension AppBench.Item: AppModelValue {
    static func identifiers(_ values: [Self]) -> [UUID] { values.map(\.id) }
}
extension AppBench.KeyedItem: AppModelValue {
    static func identifiers(_ values: [Self]) -> [UUID] { values.map(\.id) }
}
