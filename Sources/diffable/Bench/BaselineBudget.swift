/// The baselines a row compares Diffable with.
enum BaselineEngine: String {
    case plainSwift = "plain Swift"
    case swiftDifference = "difference(from:)"
}

/// How a baseline's cost grows with n on a scenario: Swift's Myers diff is O((n + m)·d) for
/// d edits, so quadratic wherever the edits grow with n; the plain-Swift diff is linear.
enum BaselineGrowth {
    case linear, quadratic

    func scale(_ seconds: Double, from smaller: Int, to larger: Int) -> Double {
        let factor = Double(larger) / Double(max(smaller, 1))
        return self == .linear ? seconds * factor : seconds * factor * factor
    }
}

/// What a baseline measurement gave: its median (nil when skipped), the runs behind it, and
/// a note when it was skipped or cut short.
struct BaselineOutcome {
    var seconds: Double?
    var runs: Int?
    var note: String?
}

/// Keeps a full `diffable bench` to minutes: before a baseline runs, its time is estimated
/// from the same baseline at the largest smaller n measured so far (or a probe run at a small
/// n), scaled by its growth. A measurement (warm-up + runs) that would exceed the budget runs
/// fewer times, without warm-up; one whose single run would exceed it is skipped. Both are
/// said on stderr and in the row's notes.
final class BaselineBudget {
    /// Seconds one baseline measurement (warm-up and runs) may take.
    let seconds: Double
    private var history: [String: (count: Int, seconds: Double)] = [:]
    private let log: BenchLog
    /// `--swift-limit`: Swift's `difference(from:)` never runs above this n.
    private let swiftDifferenceLimit: Int?

    /// `--memory-limit`: a baseline whose inputs and work would take the process past this
    /// many bytes resident is skipped.
    let memoryLimit: Int

    init(seconds: Double, log: BenchLog, swiftDifferenceLimit: Int? = nil, memoryLimit: Int = Int.max) {
        self.seconds = seconds
        self.log = log
        self.swiftDifferenceLimit = swiftDifferenceLimit
        self.memoryLimit = memoryLimit
    }

    /// Bytes per item a baseline needs beyond Diffable's inputs: both lists as Swift arrays
    /// (a 16-byte `"item-%011d"` String is a heap object plus 16 bytes in each array), and the
    /// plain-Swift diff's Dictionary or the Myers diff's work. Calibrated on the flat move-one
    /// row at 10^7 String keys, the largest baseline of the bench (docs/PERFORMANCE.md).
    static func bytesPerItem(_ engine: BaselineEngine, strings: Bool) -> Int {
        let lists = strings ? 128 : 24
        return lists + (engine == .plainSwift ? (strings ? 48 : 32) : 32)
    }

    /// How one baseline measurement will run: its runs and warm-up, or skipped (a note saying why).
    struct Plan {
        var engine: BaselineEngine
        var key: String
        var count: Int
        var runs: Int
        var warmUp: Bool
        var skipped: Bool
        var note: String?
    }

    /// Decides how a baseline runs on this row before its (possibly large) inputs are made.
    /// - Parameters:
    ///   - series: identifies the baseline, suite, scenario and keys whose history applies.
    ///   - probe: one run of the same baseline and scenario at a smaller n; returns its seconds.
    func plan(
        _ engine: BaselineEngine, series: String, count: Int, runs: Int, growth: BaselineGrowth, label: String, strings: Bool,
        probe: (Int) -> Double
    ) -> Plan {
        let key = "\(engine.rawValue)|\(series)"
        var plan = Plan(engine: engine, key: key, count: count, runs: runs, warmUp: true, skipped: false)
        if engine == .swiftDifference, let swiftDifferenceLimit, count > swiftDifferenceLimit {
            plan.skipped = true
            plan.note = "\(engine.rawValue) skipped at \(label): above --swift-limit \(swiftDifferenceLimit)"
            return plan
        }
        let bytes = count * Self.bytesPerItem(engine, strings: strings)
        if let resident = Measure.residentBytes(), resident + bytes > memoryLimit {
            plan.skipped = true
            plan.note =
                "\(engine.rawValue) skipped at \(label): its lists would take ~\(bytes >> 20) MB more "
                + "(\(resident >> 20) MB resident, --memory-limit \(memoryLimit >> 20) MB)"
            log.note(plan.note!)
            return plan
        }
        let estimate: Double?
        if let (known, knownSeconds) = history[key], known <= count {
            estimate = growth.scale(knownSeconds, from: known, to: count)
        } else if count > 1_000 {
            let small = growth == .quadratic ? 1_000 : min(count / 10, 100_000)
            let probed = probe(small)
            history[key] = (small, probed)
            estimate = growth.scale(probed, from: small, to: count)
        } else {
            estimate = nil
        }
        guard let estimate, estimate * Double(runs + 1) > seconds else { return plan }
        guard estimate <= seconds else {
            plan.skipped = true
            plan.note =
                "\(engine.rawValue) skipped at \(label): ~\(Self.duration(estimate)) a run estimated (budget \(Self.duration(seconds)))"
            log.note(plan.note!)
            return plan
        }
        plan.runs = max(1, min(runs, Int(seconds / estimate)))
        plan.warmUp = false
        plan.note =
            "\(engine.rawValue) at \(label): \(plan.runs) run\(plan.runs == 1 ? "" : "s") without warm-up (~\(Self.duration(estimate)) each)"
        log.note(plan.note!)
        return plan
    }

    /// Runs a planned measurement of `body` (one baseline run on the row's input).
    func measure(_ plan: Plan, body: () -> Void) -> BaselineOutcome {
        guard !plan.skipped else { return BaselineOutcome(seconds: nil, runs: nil, note: plan.note) }
        let median = Measure.median(runs: plan.runs, warmUp: plan.warmUp, body)
        history[plan.key] = (plan.count, median)
        return BaselineOutcome(seconds: median, runs: plan.runs, note: plan.note)
    }

    /// "0.4 s", "12 s", "9 min". - Complexity: O(1).
    static func duration(_ seconds: Double) -> String {
        if seconds >= 7200 { return "\(Int((seconds / 3600).rounded())) h" }
        if seconds >= 120 { return "\(Int((seconds / 60).rounded())) min" }
        if seconds >= 10 { return "\(Int(seconds.rounded())) s" }
        return String(format: "%.1f s", seconds)
    }
}
