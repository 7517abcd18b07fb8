import Foundation

/// Wall-clock timing and process memory for the benchmarks.
enum Measure {
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Median of `runs` timed runs after one untimed warm-up.
    static func median(runs: Int, _ body: () throws -> Void) rethrows -> Double {
        try body()
        var samples: [Double] = []
        for _ in 0..<max(1, runs) { samples.append(try seconds(body)) }
        samples.sort()
        return samples[samples.count / 2]
    }

    /// Peak resident set size of this process in bytes (Linux VmHWM), or nil.
    static func peakResidentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.split(separator: " ").compactMap { Int($0) }
            if let kilobytes = digits.first { return kilobytes * 1024 }
        }
        return nil
    }
}
