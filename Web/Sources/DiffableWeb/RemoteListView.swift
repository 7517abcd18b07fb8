import DiffableJSONText
import Diffable
import Foundation
import NIOCore

/// A ``ListView`` whose rows live in a browser: every change the data source makes becomes one
/// message for the client script (docs: Web/README.md, "Wire format").
///
/// `reloadData()` sends the whole list; `performBatchUpdates` replays the batch as sequential
/// steps (``BatchValidator/steps(for:oldCounts:newCounts:)``), with the rendered row for every
/// insert, reload and reconfigure, and keeps the batch's completion until the browser
/// acknowledges the message (``acknowledge(_:)``). A data source with
/// ``QueuedApplyPolicy/coalesce`` therefore folds the applies that arrive behind a slow browser
/// into one: at most one batch per data source is ever waiting for a client.
///
/// Every message carries a sequence number, one more than the last; the client asks for a full
/// reload when one is missing. All methods run on the data source's executor.
public final class RemoteListView: ListView, @unchecked Sendable {
    public weak var dataSource: (any ListViewDataSource<RemoteRow>)?

    /// Receives each message's JSON text, in order.
    private let send: (String) -> Void
    /// Shared mode (``LiveList``'s views shared by several browsers): each message goes here
    /// without its sequence number, which every browser's connection writes itself, and a
    /// batch's completion runs as soon as it is encoded (the browsers' acknowledgements are
    /// tracked per browser, not here). `sequence` then counts the view's versions.
    private let broadcast: ((SharedMessage) -> Void)?
    /// The last sequence number sent.
    public private(set) var sequence = 0
    /// Completions of batches sent and not yet acknowledged, by sequence number.
    private var unacknowledged: [(sequence: Int, completion: (Bool) -> Void)] = []
    /// Counts for tests and the benchmark: messages and bytes sent.
    public private(set) var messagesSent = 0
    public private(set) var bytesSent = 0

    /// Runs a job later on the executor; with it, the batches of one apply (the structural one
    /// and the refresh one that the data source hands over in the same turn) go out as one
    /// message, so the browser never paints rows moved but not yet updated.
    private let schedule: ((@escaping @Sendable () -> Void) -> Void)?
    /// Steps of batches performed in this executor turn and not yet sent.
    private var outbox: JSONText?
    private var outboxStepCount = 0
    private var outboxCompletions: [(Bool) -> Void] = []
    /// The last structural batch's item steps (and the refresh steps after it), their rows
    /// rendered, held back from `outbox` so that a row it moves and a later batch of the same
    /// turn reconfigures goes as one move step carrying the new content.
    private var held: [HeldStep] = []
    /// Index in `held` of the move step that put a row at each final position.
    private var heldMoves: [IndexPath: Int] = [:]

    /// A section whose batch moves at least this many of its rows, and at least a quarter of
    /// them, is sent as its new order (one "o" step: each kept row by its current index, each
    /// new row rendered) instead of a step per row: the browser then places every row in one
    /// pass, keeping the nodes. Only for batches without section changes, refreshes or moves
    /// between sections; nil sends single steps always.
    public var reorderThreshold: Int? = 256

    /// - Parameters:
    ///   - send: called on the executor with each message's text, in order.
    ///   - schedule: runs a job later on the executor (e.g. `queue.async`); nil sends each
    ///     batch at once as its own message.
    /// - Complexity: O(1).
    public init(send: @escaping (String) -> Void, schedule: ((@escaping @Sendable () -> Void) -> Void)? = nil) {
        self.send = send
        self.schedule = schedule
        broadcast = nil
    }

    /// A view whose messages are shared (see `broadcast`).
    init(broadcast: @escaping (SharedMessage) -> Void, schedule: @escaping (@escaping @Sendable () -> Void) -> Void) {
        send = { _ in }
        self.schedule = schedule
        self.broadcast = broadcast
    }

    /// Sends the whole list: every section's header and rows.
    /// - Complexity: O(rows), plus the cell provider for each row.
    public func reloadData() {
        guard let dataSource else { return }
        flush()
        sequence += 1
        emit(.reload, reloadBody(of: dataSource))
    }

    /// The whole list as a reload message's body (what follows its sequence number).
    /// - Complexity: O(rows), plus the cell provider for each row.
    private func reloadBody(of dataSource: any ListViewDataSource<RemoteRow>) -> JSONText {
        var json = JSONText(capacity: 1 << 12)
        json.append(#","sections":["#)
        for section in 0..<dataSource.numberOfSections() {
            if section > 0 { json.append(",") }
            writeSection(section, of: dataSource, to: &json)
        }
        json.append("]}")
        return json
    }

    /// Shared mode: the current state as a reload body, for a browser that joins or fell behind,
    /// without sending anything to the others. Batches still waiting in this turn go out first,
    /// so the body is the state of version `sequence`.
    /// - Complexity: O(rows), plus the cell provider for each row.
    func currentReload() -> SharedMessage? {
        guard let dataSource else { return nil }
        flush()
        return SharedMessage(kind: .reload, version: sequence, body: ByteBuffer(bytes: reloadBody(of: dataSource).bytes))
    }

    /// Sends the batch as steps; `completion` runs when the browser acknowledges it.
    /// - Complexity: O(s + k log k) for the steps (s sections, k changes), plus the rows rendered.
    public func performBatchUpdates(
        _ batch: BatchUpdate, animation: RowAnimation, updates: () -> Void, completion: @escaping (Bool) -> Void
    ) {
        guard let dataSource else {
            updates()
            completion(false)
            return
        }
        let oldCounts = Self.counts(of: dataSource)
        updates()
        let newCounts = Self.counts(of: dataSource)
        let steps: [ListStep]
        do {
            // The data source's batches come from its diffs, valid by construction: the core lists
            // them without re-validating. A refresh batch names final positions only.
            steps = try batch.steps(oldCounts: batch.isRefreshOnly ? newCounts : oldCounts, newCounts: newCounts)
        } catch {
            preconditionFailure("DiffableWeb: the data source handed RemoteListView an invalid batch: \(error)")
        }
        if outbox == nil {
            outbox = JSONText(capacity: 64 + steps.count * 32)
            if let schedule {
                schedule { [weak self] in self?.flush() }
            }
        }
        let reordered = reorderedSections(of: batch, newCounts: newCounts)
        if reordered.isEmpty, !steps.contains(where: \.rendersSection) {
            hold(steps, of: batch, from: dataSource)
        } else if reordered.isEmpty {
            // A section rendered now, from the data source as it is: the steps go out as they are.
            writeHeld()
            writeSteps(steps, of: dataSource, into: &outbox!, count: &outboxStepCount)
        } else {
            writeHeld()
            // No section changes and no moves between sections: each step stays in its section,
            // so the other sections' steps and the new orders do not depend on each other.
            writeSteps(steps.filter { !reordered.contains($0.onlySection) }, of: dataSource, into: &outbox!, count: &outboxStepCount)
            for section in reordered.sorted() {
                writeOrder(of: section, batch: batch, oldCount: oldCounts[section], newCount: newCounts[section],
                           of: dataSource, into: &outbox!, count: &outboxStepCount)
            }
        }
        outboxCompletions.append(completion)
        if schedule == nil { flush() }
    }

    /// Sends the batches collected in this turn as one message; their completions wait for its
    /// acknowledgement.
    func flush() {
        writeHeld()
        guard let body = outbox else { return }
        outbox = nil
        outboxStepCount = 0
        sequence += 1
        let completions = outboxCompletions
        outboxCompletions = []
        var json = JSONText(capacity: body.bytes.count + 16)
        json.append(#","steps":["#)
        json.append(body)
        json.append("]}")
        if broadcast != nil {
            emit(.batch, json)
            for completion in completions { completion(true) }
        } else {
            for completion in completions { unacknowledged.append((sequence, completion)) }
            emit(.batch, json)
        }
    }

    /// Whether batches of this turn wait to be sent (their data source state is ahead of
    /// `sequence`).
    var hasPendingBatches: Bool { outbox != nil }

    /// Sends the rows at `paths` again, updated in place (reconfigure steps), outside any batch
    /// of the data source: for what the data source does not diff, such as an outline row's
    /// disclosure state. Call on the executor, not inside an update.
    /// - Parameter completion: runs when the browser acknowledges the message (at once with
    ///   `true` when `paths` is empty, with `false` when no data source is attached or the
    ///   browser leaves first).
    /// - Complexity: O(paths) plus the cell provider for each.
    public func reconfigureRows(at paths: [IndexPath], completion: ((Bool) -> Void)? = nil) {
        guard let dataSource else { completion?(false); return }
        guard !paths.isEmpty else { completion?(true); return }
        flush()
        var body = JSONText()
        var count = 0
        writeSteps(paths.map(ListStep.reconfigureItem), of: dataSource, into: &body, count: &count)
        outbox = body
        if let completion { outboxCompletions.append(completion) }
        flush()
    }

    /// What the browser said about message `sequence`.
    public enum Acknowledgement: Equatable, Sendable {
        /// A batch's completion ran (or the message needed none, e.g. a reload).
        case accepted
        /// The number was never sent.
        case unknown
    }

    /// The browser applied every message up to `sequence`: the completions of those batches run.
    /// - Complexity: O(batches acknowledged).
    public func acknowledge(_ sequence: Int) -> Acknowledgement {
        guard sequence >= 1, sequence <= self.sequence else { return .unknown }
        while let first = unacknowledged.first, first.sequence <= sequence {
            unacknowledged.removeFirst()
            first.completion(true)
        }
        return .accepted
    }

    /// The browser left: every batch still waiting finishes with `false`.
    /// - Complexity: O(batches waiting).
    public func disconnect() {
        let waiting = unacknowledged
        unacknowledged = []
        for entry in waiting { entry.completion(false) }
    }

    /// The number of batches sent and not acknowledged (at most the batches of one apply).
    public var batchesInFlight: Int { unacknowledged.count + outboxCompletions.count }

    // MARK: Encoding

    /// Sends a message: its header (type and sequence number) and `body`; in shared mode, the
    /// body alone.
    private func emit(_ kind: SharedMessage.Kind, _ body: JSONText) {
        messagesSent += 1
        if let broadcast {
            bytesSent += body.bytes.count
            broadcast(SharedMessage(kind: kind, version: sequence, body: ByteBuffer(bytes: body.bytes)))
            return
        }
        var json = JSONText(capacity: body.bytes.count + 32)
        kind.writeHeader(sequence: sequence, to: &json)
        json.append(body)
        bytesSent += json.bytes.count
        send(json.text)
    }

    private static func counts(of dataSource: any ListViewDataSource<RemoteRow>) -> [Int] {
        (0..<dataSource.numberOfSections()).map { dataSource.numberOfItems(inSection: $0) }
    }

    /// Holds an item-only batch's steps with their rows rendered now. A reconfigure of a row
    /// that the last structural batch moved is folded into that move (`["m",…,row]`): the
    /// browser updates the moved node's content as it moves it, and the row's position and
    /// markup go once.
    /// - Complexity: O(k log k) for k steps, plus the rows rendered.
    private func hold(_ steps: [ListStep], of batch: BatchUpdate, from dataSource: any ListViewDataSource<RemoteRow>) {
        if !batch.isRefreshOnly {
            // Positions after an earlier structural batch no longer name the rows it moved.
            writeHeld()
            heldMoves = finalPositions(ofMovesIn: steps, batch: batch)
        }
        for step in steps {
            switch step {
            case .reconfigureItem(let path):
                let row = dataSource.cell(at: path)
                if let move = heldMoves[path] {
                    held[move].row = row
                } else {
                    held.append(HeldStep(step: step, row: row))
                }
            case .insertItem(let path), .reloadItem(let path):
                // A reloaded row gets a new node: later content goes to it, not to the moved one.
                heldMoves[path] = nil
                held.append(HeldStep(step: step, row: dataSource.cell(at: path)))
            default:
                held.append(HeldStep(step: step, row: nil))
            }
        }
    }

    /// For each final position a move of `batch` fills, the index in `held` (after the steps
    /// already held) of the move step that takes the row there. The core lists a section's
    /// item moves in the final order of their rows (``BatchValidator/steps(for:oldCounts:newCounts:)``,
    /// step 5), after every section step, so the j-th move step into section s is the move to
    /// the j-th smallest final position in s. Empty (nothing folded) if the counts disagree.
    /// - Complexity: O(k log k) for k moves.
    private func finalPositions(ofMovesIn steps: [ListStep], batch: BatchUpdate) -> [IndexPath: Int] {
        var targets: [Int: [Int]] = [:]
        for move in batch.moveItems { targets[move.to.section, default: []].append(move.to.item) }
        for section in targets.keys { targets[section]!.sort() }
        var taken: [Int: Int] = [:]
        var positions: [IndexPath: Int] = [:]
        for (offset, step) in steps.enumerated() {
            guard case .moveItem(_, let to) = step else { continue }
            let rank = taken[to.section, default: 0]
            guard let finals = targets[to.section], rank < finals.count else { return [:] }
            taken[to.section] = rank + 1
            positions[IndexPath(item: finals[rank], section: to.section)] = held.count + offset
        }
        return positions.count == batch.moveItems.count ? positions : [:]
    }

    /// Appends the held steps to `outbox`.
    /// - Complexity: O(held steps and their rows' bytes).
    private func writeHeld() {
        heldMoves = [:]
        guard !held.isEmpty, outbox != nil else { return }
        for step in held { writeStep(step.step, row: step.row, of: nil, into: &outbox!, count: &outboxStepCount) }
        held = []
    }

    /// Appends the steps, comma-separated after the `count` already written; each step an array
    /// whose first element names it (see Web/README.md, "Wire format").
    private func writeSteps(
        _ steps: [ListStep], of dataSource: any ListViewDataSource<RemoteRow>, into json: inout JSONText, count: inout Int
    ) {
        for step in steps {
            let row: RemoteRow? =
                switch step {
                case .insertItem(let path), .reloadItem(let path), .reconfigureItem(let path): dataSource.cell(at: path)
                default: nil
                }
            writeStep(step, row: row, of: dataSource, into: &json, count: &count)
        }
    }

    /// Appends one step: `row` is the rendered row of an insert, reload or reconfigure, or the
    /// new content of a moved row (nil: it keeps its content); `dataSource` renders a section
    /// step's rows (never nil for those).
    private func writeStep(
        _ step: ListStep, row: RemoteRow?, of dataSource: (any ListViewDataSource<RemoteRow>)?, into json: inout JSONText,
        count: inout Int
    ) {
        if count > 0 { json.append(",") }
        count += 1
        json.append(step.opening)
        switch step {
        case .deleteItem(let path), .insertItem(let path), .reloadItem(let path), .reconfigureItem(let path):
            writePath(path, to: &json)
        case .moveItem(let from, let to):
            writePath(from, to: &json)
            json.append(",")
            writePath(to, to: &json)
        case .deleteSection(let index):
            json.append(index)
        case .insertSection(let index), .reloadSection(let index):
            json.append(index)
            json.append(",")
            writeSection(index, of: dataSource!, to: &json)
        case .moveSection(let from, let to):
            json.append(from)
            json.append(",")
            json.append(to)
        }
        if let row {
            json.append(",")
            writeRow(row, to: &json)
        }
        json.append("]")
    }

    /// The sections of `batch` to send as their new order (``reorderThreshold``).
    /// - Complexity: O(batch operations).
    private func reorderedSections(of batch: BatchUpdate, newCounts: [Int]) -> Set<Int> {
        guard let threshold = reorderThreshold, !batch.isRefreshOnly, batch.moveItems.count >= threshold,
            batch.deleteSections.isEmpty, batch.insertSections.isEmpty, batch.moveSections.isEmpty,
            batch.reloadSections.isEmpty, batch.reloadItems.isEmpty, batch.reconfigureItems.isEmpty
        else { return [] }
        var moves: [Int: Int] = [:]
        for move in batch.moveItems {
            guard move.from.section == move.to.section else { return [] }
            moves[move.to.section, default: 0] += 1
        }
        return Set(moves.filter { $0.value >= threshold && 4 * $0.value >= newCounts[$0.key] }.keys)
    }

    /// One "o" step: the rows of `section` after `batch`, each kept row as its index before the
    /// batch, each inserted row rendered. The rows neither deleted nor moved keep their order
    /// and fill, in order, the positions no insert or move names (the batch's own semantics).
    /// - Complexity: O(old + new rows of the section) plus the inserted rows rendered.
    private func writeOrder(
        of section: Int, batch: BatchUpdate, oldCount: Int, newCount: Int,
        of dataSource: any ListViewDataSource<RemoteRow>, into json: inout JSONText, count: inout Int
    ) {
        var leaving = [Bool](repeating: false, count: oldCount)
        // Per new position: -1 a row that stays, -2 an insert, otherwise the moved row's old index.
        var source = [Int](repeating: -1, count: newCount)
        for path in batch.deleteItems where path.section == section { leaving[path.item] = true }
        for path in batch.insertItems where path.section == section { source[path.item] = -2 }
        for move in batch.moveItems where move.to.section == section {
            leaving[move.from.item] = true
            source[move.to.item] = move.from.item
        }
        if count > 0 { json.append(",") }
        count += 1
        json.append(#"["o","#)
        json.append(section)
        json.append(",[")
        var staying = 0
        for position in 0..<newCount {
            if position > 0 { json.append(",") }
            switch source[position] {
            case -2:
                writeRow(dataSource.cell(at: IndexPath(item: position, section: section)), to: &json)
            case -1:
                while leaving[staying] { staying += 1 }
                json.append(staying)
                staying += 1
            case let old:
                json.append(old)
            }
        }
        json.append("]]")
    }

    private func writePath(_ path: IndexPath, to json: inout JSONText) {
        json.append(path.section)
        json.append(",")
        json.append(path.item)
    }

    /// `[header or null, [rows]]`.
    private func writeSection(_ section: Int, of dataSource: any ListViewDataSource<RemoteRow>, to json: inout JSONText) {
        json.append("[")
        if let header = dataSource.supplementaryView(ofKind: "header", at: IndexPath(item: 0, section: section)) {
            json.appendString(header.html)
        } else {
            json.append("null")
        }
        json.append(",[")
        for item in 0..<dataSource.numberOfItems(inSection: section) {
            if item > 0 { json.append(",") }
            writeRow(dataSource.cell(at: IndexPath(item: item, section: section)), to: &json)
        }
        json.append("]]")
    }

    /// A flat row is its markup; an outline row is `[markup, level, flags]` (1: expandable, 2: expanded).
    private func writeRow(_ row: RemoteRow, to json: inout JSONText) {
        guard let level = row.level else {
            json.appendString(row.html)
            return
        }
        json.append("[")
        json.appendString(row.html)
        json.append(",")
        json.append(level)
        json.append(",")
        json.append((row.expandable == true ? 1 : 0) | (row.isExpanded ? 2 : 0))
        json.append("]")
    }
}

/// A step held back in the current turn, with its row rendered when its batch was performed.
private struct HeldStep {
    let step: ListStep
    /// An insert's, reload's or reconfigure's row; a move's new content (folded reconfigure).
    var row: RemoteRow?
}

private extension ListStep {
    /// Whether the step renders a whole section from the data source (insert or reload).
    var rendersSection: Bool {
        switch self {
        case .insertSection, .reloadSection: true
        default: false
        }
    }

    /// The opening of the step's array, its name: `["d",` and so on (Web/README.md, "Wire format").
    var opening: StaticString {
        switch self {
        case .deleteItem: #"["d","#
        case .insertItem: #"["i","#
        case .moveItem: #"["m","#
        case .reloadItem: #"["r","#
        case .reconfigureItem: #"["c","#
        case .deleteSection: #"["D","#
        case .insertSection: #"["I","#
        case .moveSection: #"["M","#
        case .reloadSection: #"["R","#
        }
    }

    /// The one section an item step touches (only asked of batches without section steps or
    /// moves between sections).
    var onlySection: Int {
        switch self {
        case .deleteItem(let path), .insertItem(let path), .reloadItem(let path), .reconfigureItem(let path): path.section
        case .moveItem(let from, _): from.section
        case .deleteSection(let index), .insertSection(let index), .reloadSection(let index): index
        case .moveSection(let from, _): from
        }
    }
}

/// One message of a view shared by several browsers: its type and everything after its
/// sequence number, which each browser's connection writes itself (every browser numbers its
/// messages from 1).
struct SharedMessage: Sendable {
    enum Kind: Sendable {
        case reload, batch

        /// `{"t":"reload","seq":N` or `{"t":"batch","seq":N`.
        func writeHeader(sequence: Int, to json: inout JSONText) {
            json.append(self == .reload ? #"{"t":"reload","seq":"# : #"{"t":"batch","seq":"#)
            json.append(sequence)
        }

        /// The start of the message for a browser whose `sequence` it is (the shared body follows).
        func header(sequence: Int) -> String {
            (self == .reload ? #"{"t":"reload","seq":"# : #"{"t":"batch","seq":"#) + String(sequence)
        }
    }
    let kind: Kind
    /// The shared view's version this message brings a browser to.
    let version: Int
    /// The JSON after the sequence number (`,"steps":[…]}` or `,"sections":[…]}`), in one buffer
    /// that every browser's connection writes without copying it.
    let body: ByteBuffer
}
