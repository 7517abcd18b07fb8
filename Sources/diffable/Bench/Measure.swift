import Foundation

/// Wall-clock timing and process memory for the benchmarks.
enum Measure {
    /// What a timing reads.
    enum Clock {
        /// Elapsed time (the default): what a user waits, other processes' share of the cores included.
        case wall
        /// This thread's CPU time (user and system, page faults included): on a machine other
        /// processes crowd, it leaves out the time they hold the core (not the caches and memory
        /// bandwidth they take). Only for timings whose work stays on the calling thread.
        case threadCPU
    }

    /// Set once from `--cpu-time` before anything is timed; the bench is single-threaded.
    nonisolated(unsafe) static var clock = Clock.wall

    /// Nanoseconds on ``clock``. - Complexity: O(1).
    static func now() -> UInt64 {
        switch clock {
        case .wall: return DispatchTime.now().uptimeNanoseconds
        case .threadCPU:
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
        }
    }

    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return Double(now() - start) / 1e9
    }

    /// Pushes everything out of the CPU caches by writing a buffer far larger than the
    /// last-level cache, so a timed body that makes a few random accesses starts cold whatever
    /// its untimed setup touched (a tap on a row after the user scrolled finds nothing cached).
    /// The buffer is mapped for the call only and returned to the system after it, and the
    /// peak resident size it caused is taken back (``peakResidentBytes()`` still reports the
    /// peak from before it).
    /// - Complexity: O(`evictionBytes`).
    static func evictCaches() {
        let peak = peakResidentBytes() ?? 0
        do {
            let lines = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: evictionBytes / 8)
            defer { lines.deallocate() }
            for index in stride(from: 0, to: lines.count, by: 8) { lines[index] = UInt64(index) }
        }
        if clearPeak() { peakHiddenByEviction = peak }
    }

    /// Eight times the last-level cache lscpu reports on the machines the figures in
    /// docs/PERFORMANCE.md come from. Twice that was not enough there: a model whose lookup
    /// table its untimed setup had just read still found it cached.
    static let evictionBytes = 256 << 20

    /// The peak resident size before the last ``evictCaches()``, which cleared the kernel's
    /// peak so that its own buffer does not count. The bench is single-threaded.
    nonisolated(unsafe) private static var peakHiddenByEviction = 0

    /// Median seconds of `runs` timed calls of `body`, each after an untimed `setup` (no
    /// warm-up: the setup puts each run in the state to time).
    static func median(runs: Int, setup: () -> Void, body: () -> Void) -> Double {
        var samples: [Double] = []
        for _ in 0..<max(1, runs) {
            setup()
            samples.append(seconds(body))
        }
        return samples.sorted()[samples.count / 2]
    }

    /// Median of `runs` timed runs, after one untimed warm-up when `warmUp`.
    static func median(runs: Int, warmUp: Bool = true, _ body: () throws -> Void) rethrows -> Double {
        if warmUp { try body() }
        var samples: [Double] = []
        for _ in 0..<max(1, runs) { samples.append(try seconds(body)) }
        samples.sort()
        return samples[samples.count / 2]
    }

    /// Peak resident set size of this process in bytes (Linux VmHWM), or nil.
    static func peakResidentBytes() -> Int? {
        statusKilobytes("VmHWM:").map { max($0 * 1024, peakHiddenByEviction) }
    }

    /// Resident set size of this process now in bytes (Linux VmRSS), or nil.
    static func residentBytes() -> Int? { statusKilobytes("VmRSS:").map { $0 * 1024 } }

    /// Starts a new peak: VmHWM drops to the current RSS (Linux ≥ 4.0, `clear_refs` 5), so
    /// each bench row reports its own peak. Returns false where the kernel does not allow it.
    @discardableResult
    static func resetPeakResident() -> Bool {
        peakHiddenByEviction = 0
        return clearPeak()
    }

    private static func clearPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
    }

    private static func statusKilobytes(_ key: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(key) {
            if let kilobytes = line.split(separator: " ").compactMap({ Int($0) }).first { return kilobytes }
        }
        return nil
    }

    /// "AMD EPYC, 2 cores, 2025-06-01": what the figures were measured on.
    static func machine() -> String {
        var model = "unknown CPU"
        if let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
            let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
            let colon = line.firstIndex(of: ":")
        {
            model = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return "\(model), \(cores) core\(cores == 1 ? "" : "s"), \(formatter.string(from: Date()))"
    }
}
