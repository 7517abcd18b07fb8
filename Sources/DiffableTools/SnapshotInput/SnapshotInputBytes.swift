internal import CSnapshotJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The bytes of one input, followed by the zero padding the JSON parser reads past the end.
///
/// A regular file is mapped, not copied: its pages come straight from the page cache (the
/// padding is an anonymous page behind them), which saves a copy and a page fault per 4 KiB
/// of input. As with any mapped file, truncating it while it is read is undefined.
/// Standard input and other streams are read into memory.
public final class SnapshotInputBytes: @unchecked Sendable {  // immutable after init
    /// The input, then `SNAPSHOT_JSON_PADDING` zero bytes.
    let padded: UnsafeRawBufferPointer
    /// The input's length in bytes.
    public let count: Int
    /// Where the bytes came from: the path, or `stdin`.
    public let source: String
    private let release: (UnsafeRawBufferPointer) -> Void

    private static let padding = Int(SNAPSHOT_JSON_PADDING)

    /// Bytes given in memory (tests, generated input).
    /// - Complexity: O(bytes).
    public init(_ bytes: some Collection<UInt8>, source: String) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count + Self.padding, alignment: 64)
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        _ = UnsafeMutableRawBufferPointer(rebasing: buffer[..<bytes.count]).initializeMemory(as: UInt8.self, from: bytes)
        padded = UnsafeRawBufferPointer(buffer)
        count = bytes.count
        self.source = source
        release = { $0.deallocate() }
    }

    /// Reads a whole file, or standard input for `-`.
    /// - Throws: ``SnapshotInputError`` naming the path when it cannot be opened or read.
    /// - Complexity: O(file size).
    public init(contentsOf path: String) throws(SnapshotInputError) {
        let source = path == "-" ? "stdin" : path
        let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw SnapshotInputError(source: source, message: "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw SnapshotInputError(source: source, message: "cannot read: \(String(cString: strerror(errno)))")
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            throw SnapshotInputError(source: source, message: "cannot read: it is a directory; expected a snapshot file")
        }
        self.source = source
        if (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0, let mapped = Self.map(descriptor, size: Int(status.st_size)) {
            padded = mapped
            count = Int(status.st_size)
            release = { munmap(UnsafeMutableRawPointer(mutating: $0.baseAddress), $0.count) }
            return
        }
        let buffer = try Self.readAll(descriptor, source: source)
        padded = UnsafeRawBufferPointer(buffer.memory)
        count = buffer.count
        release = { $0.deallocate() }
    }

    deinit { release(padded) }

    /// Calls `body` with the input (without the padding).
    /// - Complexity: O(1) plus `body`.
    public func withBytes<Result, Failure: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result) throws(Failure) -> Result
    {
        try body(UnsafeRawBufferPointer(rebasing: padded[..<count]).bindMemory(to: UInt8.self))
    }

    /// `size` bytes of the file mapped read-only, then zero bytes to the padding's end, or nil
    /// when the file cannot be mapped (the caller reads it instead).
    private static func map(_ descriptor: Int32, size: Int) -> UnsafeRawBufferPointer? {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let length = (size + padding + page - 1) / page * page
        // Anonymous zero pages first, the file over their start: bytes past the file's end
        // are then zeros however the size falls on the page boundary.
        let region = mmap(nil, length, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let region, region != MAP_FAILED else { return nil }
        let file = mmap(region, size, PROT_READ, MAP_PRIVATE | MAP_FIXED | MAP_POPULATE, descriptor, 0)
        guard file == region else {
            munmap(region, length)
            return nil
        }
        return UnsafeRawBufferPointer(start: region, count: length)
    }

    /// Everything `descriptor` gives until its end, in a zero-padded buffer.
    private static func readAll(_ descriptor: Int32, source: String) throws(SnapshotInputError)
        -> (memory: UnsafeMutableRawBufferPointer, count: Int)
    {
        var memory = UnsafeMutableRawBufferPointer.allocate(byteCount: (1 << 16) + padding, alignment: 64)
        var used = 0
        while true {
            if memory.count - used < padding + 4096 {
                let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: memory.count * 2, alignment: 64)
                larger.copyMemory(from: UnsafeRawBufferPointer(rebasing: memory[..<used]))
                memory.deallocate()
                memory = larger
            }
            let got = read(descriptor, memory.baseAddress! + used, memory.count - used - padding)
            if got < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                memory.deallocate()
                throw SnapshotInputError(source: source, message: "cannot read: \(reason)")
            }
            if got == 0 { break }
            used += got
        }
        UnsafeMutableRawBufferPointer(rebasing: memory[used...]).initializeMemory(as: UInt8.self, repeating: 0)
        return (memory, used)
    }
}
