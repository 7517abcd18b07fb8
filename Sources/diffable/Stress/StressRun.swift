import Foundation

/// One row of the stress table: a scenario of one shape, its times, memory and checks.
struct StressRow {
    var shape: String
    var scenario: String
    /// Seconds of the operation the scenario names (set-up and checks excluded).
    var operationSeconds: Double
    /// Seconds of the whole scenario: set-up, operation and checks.
    var totalSeconds: Double
    /// The largest resident set sampled while the scenario ran.
    var peakBytes: Int
    /// The process's VmHWM after the scenario (everything so far).
    var highWaterBytes: Int
    /// VmRSS after the scenario: what it left behind (the snapshots kept for the next ones).
    var residentAfterBytes: Int
    /// What the checks counted, in words.
    var detail: String
    /// Failed checks, in words (empty: passed).
    var failures: [String]
}

/// What a scenario body records: the timed operation, what it found, and its checks.
struct StressScenario {
    var operationSeconds = 0.0
    var detail = ""
    var failures: [String] = []

    /// Runs `body`, adding its time to the operation's. - Complexity: that of `body`.
    mutating func time<T>(_ body: () throws -> T) rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { operationSeconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        return try body()
    }

    /// Records a failure unless `condition` holds. - Complexity: O(1).
    mutating func check(_ condition: Bool, _ failure: @autoclosure () -> String) {
        if !condition { failures.append(failure()) }
    }

    /// Records `expected == actual`, naming `what` when they differ. - Complexity: O(1).
    mutating func expect<T: Equatable>(_ what: String, _ actual: T, _ expected: T) {
        check(actual == expected, "\(what): \(actual), expected \(expected)")
    }
}

/// Runs the scenarios one after another, each with its own time and sampled peak, and keeps
/// the rows for the table.
final class StressRun {
    private(set) var rows: [StressRow] = []
    let limitBytes: Int

    /// - Complexity: O(1).
    init(limitBytes: Int) {
        self.limitBytes = limitBytes
        MemoryProbe.pinMallocThresholds()
    }

    /// Runs one scenario and records its row; progress goes to stderr.
    /// - Complexity: that of `body`.
    func scenario(_ shape: String, _ name: String, _ body: (inout StressScenario) -> Void) {
        FileHandle.standardError.write(Data("stress: \(shape): \(name)…\n".utf8))
        MemoryProbe.returnFreedMemory()
        var scenario = StressScenario()
        let sampler = PeakSampler()
        let start = DispatchTime.now().uptimeNanoseconds
        body(&scenario)
        let total = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let peak = sampler.stop()
        let row = StressRow(
            shape: shape, scenario: name, operationSeconds: scenario.operationSeconds, totalSeconds: total, peakBytes: peak,
            highWaterBytes: MemoryProbe.highWaterBytes() ?? peak, residentAfterBytes: MemoryProbe.residentBytes() ?? 0,
            detail: scenario.detail, failures: scenario.failures)
        rows.append(row)
        let verdict = row.failures.isEmpty ? "ok" : "FAILED: " + row.failures.joined(separator: "; ")
        FileHandle.standardError.write(
            Data(String(format: "stress:   %.2f s, peak %d MB, %@\n", row.totalSeconds, row.peakBytes >> 20, verdict).utf8))
    }

    /// The process's peak so far: its VmHWM, or the largest sampled peak where there is none.
    /// - Complexity: O(rows).
    var processPeakBytes: Int { rows.map { max($0.peakBytes, $0.highWaterBytes) }.max() ?? 0 }

    /// Every failed check, every scenario whose own peak passed the memory limit, and the
    /// process's VmHWM when it did, in words.
    /// - Complexity: O(rows).
    var problems: [String] {
        var found = rows.flatMap { row in
            var problems = row.failures.map { "\(row.shape) / \(row.scenario): \($0)" }
            if row.peakBytes > limitBytes {
                problems.append("\(row.shape) / \(row.scenario): peak \(row.peakBytes >> 20) MB is over the \(limitBytes >> 20) MB limit")
            }
            return problems
        }
        if processPeakBytes > limitBytes {
            found.append("the process's peak (VmHWM) \(processPeakBytes >> 20) MB is over the \(limitBytes >> 20) MB limit")
        }
        return found
    }

    /// The rows as a Markdown table. - Complexity: O(rows).
    func table() -> String {
        var lines = [
            "| shape | scenario | operation s | total s | scenario peak MB | RSS after MB | VmHWM MB | checked | result |",
            "|---|---|---:|---:|---:|---:|---:|---|---|",
        ]
        for row in rows {
            let result = row.failures.isEmpty ? "ok" : "FAILED"
            lines.append(
                String(
                    format: "| %@ | %@ | %.2f | %.2f | %d | %d | %d | %@ | %@ |", row.shape, row.scenario, row.operationSeconds,
                    row.totalSeconds, row.peakBytes >> 20, row.residentAfterBytes >> 20, row.highWaterBytes >> 20, row.detail, result))
        }
        return lines.joined(separator: "\n")
    }
}
