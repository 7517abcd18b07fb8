import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What memory alone costs on the machine the bench runs on: the floors under rows whose
/// time is mostly cache misses or the kernel's first touch of new pages, measured in the
/// same run so that a row's distance from its floor reads the same on any machine.
enum MemoryFloor {
    /// Nanoseconds per read along a chain of `reads` random reads in a cold array of `bytes`
    /// bytes, each address taken from the previous read (as a lookup reads its table slot,
    /// then the identifier the slot names). Median of `runs` chains.
    /// - Complexity: O(bytes) per run (the array is written, then the caches evicted).
    static func dependentColdReadNanoseconds(bytes: Int, reads: Int, runs: Int, seed: UInt64) -> Double {
        let count = max(2, bytes / MemoryLayout<Int>.stride)
        var generator = BenchGenerator(seed: seed)
        // One cycle through random positions (Sattolo's shuffle), so the chain never
        // revisits a line early and the prefetchers cannot guess the next address.
        var next = Array(0..<count)
        for index in stride(from: count - 1, to: 0, by: -1) {
            next.swapAt(index, Int.random(in: 0..<index, using: &generator))
        }
        var position = 0
        let seconds = Measure.median(
            runs: runs, setup: { Measure.evictCaches() },
            body: {
                next.withUnsafeBufferPointer { next in
                    for _ in 0..<reads { position = next[position] }
                }
            })
        if position == -1 { print("") }  // keeps the chain from being optimized away
        return seconds * 1e9 / Double(reads)
    }

    /// Microseconds per 4 KiB page to write one byte to each page of `bytes` bytes of newly
    /// mapped memory: the kernel's cost of mapping and zeroing a page on its first touch,
    /// which every fresh buffer pays. Median of `runs`.
    /// - Complexity: O(bytes) per run.
    static func firstTouchMicrosecondsPerPage(bytes: Int, runs: Int) -> Double {
        let page = 4096
        let pages = max(1, bytes / page)
        var total = 0
        let seconds = Measure.median(runs: runs) {
            // Mapped here rather than allocated: an allocator may hand back pages it already has.
            guard
                let memory = mmap(nil, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                memory != UnsafeMutableRawPointer(bitPattern: -1)
            else { return }
            defer { munmap(memory, pages * page) }
            let bytes = memory.assumingMemoryBound(to: UInt8.self)
            for index in 0..<pages { bytes[index * page] = 1 }
            total &+= Int(bytes[0])
        }
        if total == -1 { print("") }
        return seconds * 1e6 / Double(pages)
    }

    /// Minor page faults this process has taken so far (each a first touch of a page).
    static func minorFaults() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_minflt
    }
}
