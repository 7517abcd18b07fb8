#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes bytes straight to file descriptor 1: no `FILE *` buffering (the output is built in
/// memory already) and no copy into `Data`.
enum StandardOutput {
    /// Writes all of `bytes`, retrying short writes.
    /// - Throws: ``CLIError`` when standard output is closed or full.
    /// - Complexity: O(bytes.count).
    static func writeAll(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let result = write(STDOUT_FILENO, buffer.baseAddress! + written, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    throw CLIError("cannot write the output: \(String(cString: strerror(errno)))", status: .internalError)
                }
                written += result
            }
        }
    }
}
