import Foundation

/// The one serial context on which a ``DiffableDataSource`` drives its view: every
/// `reloadData()`, `performBatchUpdates`, cell request and completion handler runs there.
///
/// - ``main``: the main queue, which is the main actor's executor (UIKit's rule; the default).
/// - ``queue(_:)``: a serial `DispatchQueue`, for headless views, servers and tests.
/// - ``init(enqueue:isCurrent:)``: any other serial context (a GTK main loop, an event loop).
///
/// On Linux the main queue only runs while something services it (`dispatchMain()`, a run
/// loop, the main actor in an async program); a headless program that never does should
/// pass a queue.
public struct ViewExecutor: Sendable {
    let enqueue: @Sendable (@escaping @Sendable () -> Void) -> Void
    package let isCurrent: @Sendable () -> Bool

    /// A custom serial context.
    ///
    /// - Parameters:
    ///   - enqueue: runs a job later on the context, one job at a time (FIFO keeps
    ///     completion handlers in call order).
    ///   - isCurrent: whether the calling code runs on the context now. Answering `false`
    ///     when unsure is safe: applies made there are then queued instead of run at once.
    /// - Complexity: O(1).
    public init(
        enqueue: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void, isCurrent: @escaping @Sendable () -> Bool
    ) {
        self.enqueue = enqueue
        self.isCurrent = isCurrent
    }

    /// The main queue (the main actor's executor).
    ///
    /// Code runs "on" it when it runs on the main thread, or inside a main-queue job
    /// (after `dispatchMain()` Linux services the main queue from worker threads).
    public static let main: ViewExecutor = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return ViewExecutor(
            enqueue: { DispatchQueue.main.async(execute: $0) },
            isCurrent: { Thread.isMainThread || DispatchQueue.getSpecific(key: key) != nil })
    }()

    /// A serial dispatch queue (a concurrent queue would break the data source's ordering).
    /// Code on a queue that targets `queue` counts as on it.
    /// - Complexity: O(1).
    public static func queue(_ queue: DispatchQueue) -> ViewExecutor {
        let key = DispatchSpecificKey<UInt8>()
        queue.setSpecific(key: key, value: 1)
        return ViewExecutor(
            enqueue: { queue.async(execute: $0) }, isCurrent: { DispatchQueue.getSpecific(key: key) != nil })
    }

    /// Runs `job` now when already on the executor, else enqueues it.
    func run(_ job: @escaping @Sendable () -> Void) {
        if isCurrent() { job() } else { enqueue(job) }
    }
}
