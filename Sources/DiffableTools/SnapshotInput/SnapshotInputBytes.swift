#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
internal import CSnapshotJSON

/// The bytes of one input, followed by the zero padding the JSON parser reads past the end.
public struct SnapshotInputBytes: Sendable {
    /// The input, then `SNAPSHOT_JSON_PADDING` zeros.
    var storage: [UInt8]
    /// The input's length in bytes.
    public let count: Int
    /// Where the bytes came from: the path, or `stdin`.
    public let source: String

    /// Bytes given in memory (tests, generated input).
    /// - Complexity: O(bytes).
    public init(_ bytes: some Collection<UInt8>, source: String) {
        storage = Array(bytes)
        count = storage.count
        storage.append(contentsOf: repeatElement(0, count: Int(SNAPSHOT_JSON_PADDING)))
        self.source = source
    }

    /// Reads a whole file, or standard input for `-`.
    /// - Throws: ``SnapshotInputError`` naming the path when it cannot be read.
    /// - Complexity: O(file size).
    public init(contentsOf path: String) throws(SnapshotInputError) {
        source = path == "-" ? "stdin" : path
        let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw SnapshotInputError(source: path, message: "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        var status = stat()
        let knownSize = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : 0
        var bytes = [UInt8](repeating: 0, count: max(knownSize, 1 << 16) + Int(SNAPSHOT_JSON_PADDING))
        var used = 0
        while true {
            if bytes.count - used < Int(SNAPSHOT_JSON_PADDING) + 1 {
                bytes.append(contentsOf: repeatElement(0, count: bytes.count))
            }
            let room = bytes.count - used - Int(SNAPSHOT_JSON_PADDING)
            let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + used, room) }
            if got < 0 {
                if errno == EINTR { continue }
                throw SnapshotInputError(source: source, message: "cannot read: \(String(cString: strerror(errno)))")
            }
            if got == 0 { break }
            used += got
        }
        bytes.removeLast(bytes.count - used - Int(SNAPSHOT_JSON_PADDING))
        bytes.withUnsafeMutableBufferPointer { buffer in
            for index in used..<buffer.count { buffer[index] = 0 }
        }
        storage = bytes
        count = used
    }

    /// Calls `body` with the input (without the padding).
    /// - Complexity: O(1) plus `body`.
    public func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try storage.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[..<count])) }
    }
}
