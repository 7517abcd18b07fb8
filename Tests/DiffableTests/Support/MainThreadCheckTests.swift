import Foundation
import Testing

@testable import Diffable

/// `MainThreadCheck` (behind `ViewExecutor.main`'s `isCurrent`) keeps each thread's answer:
/// asked twice on each of several threads, it agrees with Foundation's `Thread.isMainThread`
/// every time, on the main actor and off it.
@Suite struct MainThreadCheckTests {
    @Test func agreesWithFoundationOnEveryThread() async {
        let check = MainThreadCheck()
        let answers = Locked([(checked: Bool, foundation: Bool)]())
        @Sendable func ask() {
            for _ in 0..<2 { answers.withLock { $0.append((check.isCurrent, Thread.isMainThread)) } }
        }
        await MainActor.run { ask() }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { ask() } }
        }
        let done = DispatchSemaphore(value: 0)
        let background = Thread {
            ask()
            done.signal()
        }
        background.start()
        done.wait()
        let recorded = answers.withLock { $0 }
        #expect(recorded.count == 12)
        #expect(recorded.allSatisfy { $0.checked == $0.foundation }, "\(recorded)")
        #expect(recorded.contains { !$0.foundation }, "some answers come from threads other than the main one")
    }
}
