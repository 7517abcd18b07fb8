import Foundation

/// What `diffable bench` says on stderr: a progress bar redrawn in place when stderr is a
/// terminal (nothing when it is not), and notes — skipped baselines, slow steps and why —
/// on lines of their own either way. stdout carries only the results.
final class BenchLog {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private var total = 0
    private var done = 0
    private var current = ""
    private var barShown = false
    private let started = DispatchTime.now().uptimeNanoseconds
    private var phaseStarted = DispatchTime.now().uptimeNanoseconds
    /// A phase (inputs, one engine's runs) taking longer than this is named on stderr.
    let slowPhaseSeconds = 8.0

    /// Starts counting `steps` rows.
    func begin(steps: Int) {
        total = steps
        done = 0
    }

    /// The row now running, e.g. "flat churn string n=10^6"; `phase` what it is doing.
    func step(_ label: String, phase: String = "") {
        closePhase()
        current = phase.isEmpty ? label : "\(label): \(phase)"
        draw()
    }

    /// One row finished.
    func finishStep() {
        closePhase()
        current = ""
        done += 1
        draw()
    }

    /// Says which phase was slow: "flat shuffle string n=10^7: plain Swift took 31 s".
    private func closePhase() {
        let now = DispatchTime.now().uptimeNanoseconds
        let seconds = Double(now - phaseStarted) / 1e9
        phaseStarted = now
        if !current.isEmpty && seconds > slowPhaseSeconds { note("\(current) took \(BaselineBudget.duration(seconds))") }
    }

    /// A line for the reader (a baseline skipped, a slow step), above the bar.
    func note(_ text: String) {
        clearBar()
        FileHandle.standardError.write(Data("bench: \(text)\n".utf8))
        draw()
    }

    /// Takes the bar off while a result is printed (stdout may share the terminal).
    func pause() { clearBar() }

    /// Draws the bar again after ``pause()``.
    func resume() { draw() }

    /// Removes the bar at the end of the run.
    func end() { clearBar() }

    private func clearBar() {
        guard isTerminal, barShown else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
        barShown = false
    }

    private func draw() {
        guard isTerminal, total > 0 else { return }
        let width = 24
        let filled = min(width, done * width / total)
        let elapsed = Int(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        var line = "[\(bar)] \(done)/\(total) \(elapsed / 60):\(String(format: "%02d", elapsed % 60)) \(current)"
        if line.count > 110 { line = String(line.prefix(110)) }
        FileHandle.standardError.write(Data("\r\u{1B}[2K\(line)".utf8))
        barShown = true
    }
}
