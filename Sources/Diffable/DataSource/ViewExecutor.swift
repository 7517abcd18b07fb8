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
        let mainThread = MainThreadCheck()
        return ViewExecutor(
            enqueue: { DispatchQueue.main.async(execute: $0) },
            isCurrent: { mainThread.isCurrent || DispatchQueue.getSpecific(key: key) != nil })
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

    /// Runs `job` now when already on the executor, else enqueues it and returns at once: how
    /// code on another thread reports what the user did to a view (taps, drags), which a view
    /// must do on its executor.
    /// - Complexity: O(1) plus `job` when on the executor.
    public func run(_ job: @escaping @Sendable () -> Void) {
        if isCurrent() { job() } else { enqueue(job) }
    }

    /// Runs `body` on the executor and returns its result: at once when already on it, else
    /// enqueued, the calling thread waiting until it ran (so `body` may touch a view that is
    /// not `Sendable`). Never call it off the executor from code the executor waits for (the
    /// main thread, for ``main``, when the main queue is serviced there): it would wait forever.
    ///
    /// ```swift
    /// let moved = dataSource.executor.runAndWait { view.userDragged(from: source, to: destination) }
    /// ```
    /// - Complexity: O(1) plus `body`, plus the wait for the jobs queued before it.
    public func runAndWait<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        if isCurrent() { return try body() }
        return try withoutActuallyEscaping(body) { (body) throws(Failure) -> Result in
            let handoff = Handoff<Result, Failure>(body)
            enqueue { handoff.run() }
            return try handoff.wait()
        }
    }
}

/// One ``ViewExecutor/runAndWait(_:)`` call: the body, run once on the executor, and its
/// outcome handed back to the waiting thread (under a lock, which ThreadSanitizer sees; the
/// semaphore only wakes the waiter). The body is dropped once it ran, before the waiter wakes:
/// it is a non-escaping closure, which nothing may hold when `runAndWait` returns.
private final class Handoff<Result, Failure: Error>: @unchecked Sendable {
    private var body: (() throws(Failure) -> Result)?
    private let lock = Lock()
    private var outcome: Swift.Result<Result, Failure>?
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping () throws(Failure) -> Result) { self.body = body }

    func run() {
        let result: Swift.Result<Result, Failure>
        do throws(Failure) {
            result = .success(try body!())
        } catch {
            result = .failure(error)
        }
        lock.withLock {
            body = nil
            outcome = result
        }
        done.signal()
    }

    func wait() throws(Failure) -> Result {
        done.wait()
        return try lock.withLock { outcome! }.get()
    }
}
