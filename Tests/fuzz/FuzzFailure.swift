#if canImport(Glibc)
    import Glibc
#endif

/// Stops the fuzzer with `message` on stderr when an oracle does not hold: libFuzzer saves
/// the input as a crash, and a replay prints the message again.
func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String) {
    guard !condition else { return }
    fputs("fuzz oracle failed: \(message())\n", stderr)
    abort()
}
