import Foundation

/// The cost of each phase of a command, printed on stderr by `--timings`: wall time, the
/// process's CPU time (on a busy machine wall time waits for a core, CPU time does not) and
/// the page faults taken (first touches of new memory: the kernel zeroes each page).
struct PhaseTimings {
    private struct Phase {
        var name: String
        var wall: Double
        var cpu: Double
        var faults: Int
        var note: String
    }

    /// Wall seconds, CPU seconds and minor page faults so far.
    private struct Reading {
        var wall: Double
        var cpu: Double
        var faults: Int

        static func now() -> Reading {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
            return Reading(
                wall: Double(DispatchTime.now().uptimeNanoseconds) / 1e9, cpu: seconds(usage.ru_utime) + seconds(usage.ru_stime),
                faults: usage.ru_minflt + usage.ru_majflt)
        }

        static func - (end: Reading, start: Reading) -> Reading {
            Reading(wall: end.wall - start.wall, cpu: end.cpu - start.cpu, faults: end.faults - start.faults)
        }
    }

    private var phases: [Phase] = []
    private let start = Reading.now()

    /// Runs `body` as the phase `name`.
    /// - Complexity: O(1) plus `body`.
    mutating func measure<Result>(_ name: String, _ body: () throws -> Result) rethrows -> Result {
        let begin = Reading.now()
        let result = try body()
        let cost = Reading.now() - begin
        phases.append(Phase(name: name, wall: cost.wall, cpu: cost.cpu, faults: cost.faults, note: ""))
        return result
    }

    /// Says what the last phase handled (sizes, counts), at the end of its line.
    /// - Complexity: O(1).
    mutating func note(_ text: String) {
        if !phases.isEmpty { phases[phases.count - 1].note = text }
    }

    /// One line per phase, then the total:
    /// `timing parse    152.3 ms  cpu  150.1 ms   9120 faults  2000000 items, 20000 sections`.
    /// - Complexity: O(phases).
    func lines() -> [String] {
        let total = Reading.now() - start
        return (phases + [Phase(name: "total", wall: total.wall, cpu: total.cpu, faults: total.faults, note: "")]).map { phase in
            let line =
                "timing " + phase.name.padding(toLength: 6, withPad: " ", startingAt: 0)
                + String(format: "%8.1f ms  cpu %7.1f ms %7d faults", phase.wall * 1000, phase.cpu * 1000, phase.faults)
            return phase.note.isEmpty ? line : line + "  " + phase.note
        }
    }
}
