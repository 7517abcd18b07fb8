/// One measured row of `diffable bench`, whatever the suite: the table, `--json`, `--csv`
/// and `--plot` are all drawn from these.
struct BenchRow: Encodable {
    /// flat, sectioned, snapshot, outline, apply or files.
    var suite: String
    /// The scenario (flat, sectioned), the operation (snapshot, outline, apply) or the file pair.
    var scenario: String
    /// int, string or random64 (the identifiers' type).
    var keys: String
    /// Items in the old list (n).
    var count: Int
    var sections: Int?
    /// Diffable's median time.
    var milliseconds: Double
    var nanosecondsPerItem: Double
    /// Timed runs behind the median (after one warm-up).
    var runs: Int
    /// Times the timed body ran per run, when more than once (small n repeat it so that a run
    /// lasts long enough to time); every time in the row is for one repeat. Kept out of
    /// ``scenario`` so that the scenario names one series at every n.
    var repeats: Int?
    /// Flat only: the same diff on untrusted input (every identifier checked for duplicates).
    var validatedMilliseconds: Double?
    /// Files only: building both snapshots (the diff is ``milliseconds``).
    var buildMilliseconds: Double?
    /// This process's peak RSS while the row ran (inputs and baselines included).
    var peakResidentBytes: Int?
    /// Bytes of the engine's working memory (its diff context's capacity) per item.
    var workingBytesPerItem: Double?
    var moves: Int?
    /// n − LIS of the common items (per section for snapshots), from the plain-Swift baseline.
    var minimalMoves: Int?
    /// The plain-Swift implementation (Dictionary + LIS; for snapshot, outline and apply the
    /// plain model of the same operation); nil when skipped (see ``notes``).
    var baselineMilliseconds: Double?
    var baselineRuns: Int?
    /// Sectioned and files only: Diffable building both snapshots from the identifier arrays
    /// and diffing them, every identifier hashed inside the timing (``milliseconds`` is the
    /// diff alone, on snapshots built untimed).
    var buildAndDiffMilliseconds: Double?
    /// Sectioned and files only: the plain-Swift diff from the same arrays, building its
    /// indexes inside the timing (``baselineMilliseconds`` is its diff alone, on plain models
    /// built untimed).
    var baselineBuildAndDiffMilliseconds: Double?
    /// Where the row's timings hash the identifiers: inside, outside (made at build,
    /// untimed), per side and per measurement, so a reader knows both sides did the same work.
    var identifiersHashed: String?
    /// Swift's `difference(from:).inferringMoves()` on the same (flattened) lists; it always
    /// hashes inside, so it is compared with ``buildAndDiffMilliseconds`` where there is one.
    var swiftDifferenceMilliseconds: Double?
    var swiftDifferenceRuns: Int?
    /// Why a baseline was skipped or cut short, and anything else a reader should know.
    var notes: [String] = []

    init(suite: String, scenario: String, keys: String, count: Int, milliseconds: Double, runs: Int) {
        self.suite = suite
        self.scenario = scenario
        self.keys = keys
        self.count = count
        self.milliseconds = milliseconds
        self.nanosecondsPerItem = milliseconds * 1e6 / Double(max(count, 1))
        self.runs = runs
    }

    /// How many times faster Diffable is than the plain-Swift baseline.
    var baselineRatio: Double? { baselineMilliseconds.map { $0 / max(milliseconds, 1e-6) } }
    /// How many times faster Diffable's build + diff is than the plain build + diff.
    var buildAndDiffRatio: Double? {
        guard let plain = baselineBuildAndDiffMilliseconds, let diffable = buildAndDiffMilliseconds else { return nil }
        return plain / max(diffable, 1e-6)
    }
    /// How many times faster Diffable is than `difference(from:).inferringMoves()` (its build +
    /// diff where measured: both then hash inside the timing).
    var swiftDifferenceRatio: Double? {
        swiftDifferenceMilliseconds.map { $0 / max(buildAndDiffMilliseconds ?? milliseconds, 1e-6) }
    }

    /// Records one baseline's outcome: its median, or nothing when it was skipped.
    mutating func record(_ engine: BaselineEngine, _ outcome: BaselineOutcome) {
        switch engine {
        case .plainSwift: (baselineMilliseconds, baselineRuns) = (outcome.seconds.map { $0 * 1000 }, outcome.runs)
        case .swiftDifference: (swiftDifferenceMilliseconds, swiftDifferenceRuns) = (outcome.seconds.map { $0 * 1000 }, outcome.runs)
        }
        if let note = outcome.note { notes.append(note) }
    }

    private enum CodingKeys: String, CodingKey {
        case suite, scenario, keys, count, sections, milliseconds, nanosecondsPerItem, runs, repeats, validatedMilliseconds
        case buildMilliseconds, peakResidentBytes, workingBytesPerItem, moves, minimalMoves, baselineMilliseconds
        case baselineRuns, swiftDifferenceMilliseconds, swiftDifferenceRuns, notes, baselineRatio, swiftDifferenceRatio
        case buildAndDiffMilliseconds, baselineBuildAndDiffMilliseconds, buildAndDiffRatio, identifiersHashed
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(suite, forKey: .suite)
        try container.encode(scenario, forKey: .scenario)
        try container.encode(keys, forKey: .keys)
        try container.encode(count, forKey: .count)
        try container.encodeIfPresent(sections, forKey: .sections)
        try container.encode(milliseconds, forKey: .milliseconds)
        try container.encode(nanosecondsPerItem, forKey: .nanosecondsPerItem)
        try container.encode(runs, forKey: .runs)
        try container.encodeIfPresent(repeats, forKey: .repeats)
        try container.encodeIfPresent(validatedMilliseconds, forKey: .validatedMilliseconds)
        try container.encodeIfPresent(buildMilliseconds, forKey: .buildMilliseconds)
        try container.encodeIfPresent(peakResidentBytes, forKey: .peakResidentBytes)
        try container.encodeIfPresent(workingBytesPerItem, forKey: .workingBytesPerItem)
        try container.encodeIfPresent(moves, forKey: .moves)
        try container.encodeIfPresent(minimalMoves, forKey: .minimalMoves)
        try container.encodeIfPresent(baselineMilliseconds, forKey: .baselineMilliseconds)
        try container.encodeIfPresent(baselineRuns, forKey: .baselineRuns)
        try container.encodeIfPresent(baselineRatio, forKey: .baselineRatio)
        try container.encodeIfPresent(buildAndDiffMilliseconds, forKey: .buildAndDiffMilliseconds)
        try container.encodeIfPresent(baselineBuildAndDiffMilliseconds, forKey: .baselineBuildAndDiffMilliseconds)
        try container.encodeIfPresent(buildAndDiffRatio, forKey: .buildAndDiffRatio)
        try container.encodeIfPresent(identifiersHashed, forKey: .identifiersHashed)
        try container.encodeIfPresent(swiftDifferenceMilliseconds, forKey: .swiftDifferenceMilliseconds)
        try container.encodeIfPresent(swiftDifferenceRuns, forKey: .swiftDifferenceRuns)
        try container.encodeIfPresent(swiftDifferenceRatio, forKey: .swiftDifferenceRatio)
        try container.encode(notes, forKey: .notes)
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
