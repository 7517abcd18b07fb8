import Foundation

/// The process's memory as Linux reports it: the current resident set (VmRSS), the process's
/// high-water mark so far (VmHWM, never reset here, so `/usr/bin/time -v` around the process
/// agrees with the last reading), and a sampler that finds one scenario's own peak.
enum MemoryProbe {
    /// VmRSS in bytes, or nil off Linux. - Complexity: O(1) (one read of /proc/self/status).
    static func residentBytes() -> Int? { statusField("VmRSS:") }

    /// VmHWM in bytes, or nil off Linux. - Complexity: O(1).
    static func highWaterBytes() -> Int? { Measure.peakResidentBytes() }

    private static func statusField(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name) {
            if let kilobytes = line.split(separator: " ").compactMap({ Int($0) }).first { return kilobytes * 1024 }
        }
        return nil
    }

    /// Hands the pages malloc keeps free back to the system (glibc's `malloc_trim(0)`; nothing
    /// elsewhere). Each scenario starts with it, so that its peak is its own: without it the
    /// three shapes in one process left freed but still resident heap to the outline
    /// scenarios (heap blocks freed between others stay mapped, and a 10^7-row array is too
    /// large to reuse them). What a scenario holds is unchanged.
    /// - Complexity: O(heap size).
    static func returnFreedMemory() {
        #if os(Linux)
            typealias Trim = @convention(c) (Int) -> Int32
            guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "malloc_trim") else { return }
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        #endif
    }

    /// Pins glibc's mmap threshold at its default, 128 KiB (`mallopt(M_MMAP_THRESHOLD)`; nothing
    /// elsewhere). glibc otherwise raises it, up to 32 MiB, each time a large mapped block is
    /// freed: after the first scenarios, the outline's growing arrays came from the heap rather
    /// than from mappings of their own, and every block they outgrew stayed resident until the
    /// next trim, raising the outline's peaks when the other shapes ran first
    /// (docs/PERFORMANCE.md). With the threshold pinned, each scenario allocates as in a fresh
    /// process.
    /// - Complexity: O(1).
    static func pinMallocThresholds() {
        #if os(Linux)
            typealias Option = @convention(c) (Int32, Int32) -> Int32
            guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "mallopt") else { return }
            let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD in <malloc.h>
            _ = unsafeBitCast(symbol, to: Option.self)(mmapThreshold, 128 * 1024)
        #endif
    }

    /// Resident pages from /proc/self/statm, cheap enough to read every few milliseconds.
    static func sampledResidentBytes() -> Int? {
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/statm") else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.readToEnd(), let text = String(data: data, encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// The largest resident set seen while a scenario runs: a thread samples /proc/self/statm every
/// 2 ms (the arrays of a 10^7-item step take far longer than that to fill), so the figure is
/// the scenario's own peak, not the process's high-water mark left by an earlier scenario.
final class PeakSampler: @unchecked Sendable {
    private let lock = NSLock()
    private var peak = 0
    private var running = true
    private let finished = DispatchSemaphore(value: 0)

    /// Starts sampling at once. - Complexity: O(1).
    init() {
        peak = MemoryProbe.sampledResidentBytes() ?? 0
        Thread.detachNewThread { [self] in
            while lock.withLock({ running }) {
                if let bytes = MemoryProbe.sampledResidentBytes() { lock.withLock { peak = max(peak, bytes) } }
                usleep(2_000)
            }
            finished.signal()
        }
    }

    /// Stops sampling; the peak, including one last sample. - Complexity: O(1).
    func stop() -> Int {
        lock.withLock { running = false }
        finished.wait()
        let last = MemoryProbe.sampledResidentBytes() ?? 0
        return lock.withLock { max(peak, last) }
    }
}
