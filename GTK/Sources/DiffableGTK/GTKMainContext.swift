import CDiffableGTK
import CGtk4
import Diffable
import Foundation

/// The GTK main context: the one thread on which every GTK call of DiffableGTK runs.
///
/// Call ``initialize()`` once, on the thread that will run GTK's main loop (normally the
/// process's main thread), before creating any ``GTKListView``. Data sources driving a
/// ``GTKListView`` use ``executor``: an apply made on any other thread hops to the main
/// context (an idle source on GLib's default context), and every model change asserts that it
/// runs there.
public enum GTKMainContext {
    nonisolated(unsafe) private static var owner: pthread_t?

    /// Initializes GTK (`gtk_init_check`) and records the calling thread as the GTK thread.
    /// Returns false when no display could be opened (set `DISPLAY`, or `GDK_BACKEND=broadway`
    /// with a running `gtk4-broadwayd`).
    /// - Complexity: what GTK needs to connect to the display; later calls are O(1).
    @discardableResult
    public static func initialize() -> Bool {
        if owner != nil { return true }
        guard gtk_init_check() != 0 else { return false }
        owner = pthread_self()
        return true
    }

    /// Whether the calling thread is the GTK thread. - Complexity: O(1).
    public static var isCurrent: Bool {
        guard let owner else { return false }
        return pthread_equal(owner, pthread_self()) != 0
    }

    /// Stops the program when called off the GTK thread, naming `operation`.
    /// - Complexity: O(1).
    public static func assertCurrent(_ operation: @autoclosure () -> String) {
        precondition(
            isCurrent,
            "DiffableGTK: \(operation()) must run on the GTK main context (the thread that called GTKMainContext.initialize())")
    }

    /// The executor for a data source driving a ``GTKListView``: jobs run on GLib's default
    /// main context in FIFO order (idle sources of one priority), at once when already there.
    /// - Complexity: O(1) per job to enqueue.
    public static let executor = ViewExecutor(
        enqueue: { job in
            let box = Unmanaged.passRetained(JobBox(job)).toOpaque()
            dfg_invoke_later({ raw in
                let box = Unmanaged<JobBox>.fromOpaque(raw!).takeRetainedValue()
                box.job()
            }, box)
        },
        isCurrent: { GTKMainContext.isCurrent })

    /// Runs `job` on the GTK thread later (from any thread). - Complexity: O(1).
    public static func runLater(_ job: @escaping @Sendable () -> Void) {
        executor.enqueueForTesting(job)
    }

    /// Runs GLib's default main context until `condition` holds or `timeout` seconds passed;
    /// returns whether it holds. For programs and tests without `g_main_loop_run`.
    /// - Complexity: the events processed.
    @discardableResult
    public static func iterate(until condition: () -> Bool, timeout: Double = 10) -> Bool {
        assertCurrent("iterate(until:timeout:)")
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { return false }
            // Blocking iteration wakes for every source; a short timeout source bounds the wait.
            let timer = g_timeout_add(10, { _ in 0 }, nil)
            g_main_context_iteration(nil, 1)
            if g_main_context_find_source_by_id(nil, timer) != nil { g_source_remove(timer) }
        }
        return true
    }

    /// Processes every event pending now on the default main context, without waiting.
    /// - Complexity: the events processed.
    public static func drain() {
        assertCurrent("drain()")
        while g_main_context_iteration(nil, 0) != 0 {}
    }
}

extension ViewExecutor {
    /// Enqueues without the isCurrent shortcut (the stored closure is internal to Diffable).
    fileprivate func enqueueForTesting(_ job: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(JobBox(job)).toOpaque()
        dfg_invoke_later({ raw in
            let box = Unmanaged<JobBox>.fromOpaque(raw!).takeRetainedValue()
            box.job()
        }, box)
    }
}

private final class JobBox {
    let job: @Sendable () -> Void
    init(_ job: @escaping @Sendable () -> Void) { self.job = job }
}
