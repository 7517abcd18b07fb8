import Foundation

/// The wall time of each phase of a command, printed on stderr by `--timings`.
struct PhaseTimings {
    private var phases: [(name: String, seconds: Double, note: String)] = []
    private let start = DispatchTime.now()

    /// Runs `body` as the phase `name`; `note` says what it handled (sizes, counts).
    /// - Complexity: O(1) plus `body`.
    mutating func measure<Result>(_ name: String, note: (Result) -> String = { _ in "" }, _ body: () throws -> Result) rethrows -> Result {
        let begin = DispatchTime.now()
        let result = try body()
        phases.append((name, Self.seconds(since: begin), note(result)))
        return result
    }

    /// One line per phase, then the total: `timing parse     152.3 ms  2000000 items`.
    /// - Complexity: O(phases).
    func lines() -> [String] {
        (phases + [("total", Self.seconds(since: start), "")]).map { phase in
            let line = "timing " + phase.name.padding(toLength: 6, withPad: " ", startingAt: 0)
                + String(format: "%9.1f ms", phase.seconds * 1000)
            return phase.note.isEmpty ? line : line + "  " + phase.note
        }
    }

    private static func seconds(since begin: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - begin.uptimeNanoseconds) / 1e9
    }
}
