/// The fuzzer's input read as a stream of small choices; past the end every choice is 0,
/// so any byte string decodes to some operation sequence.
struct FuzzBytes {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    init(_ data: UnsafePointer<UInt8>?, count: Int) { bytes = UnsafeBufferPointer(start: data, count: count) }

    var isAtEnd: Bool { position >= bytes.count }

    /// The next byte (0 past the end).
    mutating func next() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// A number in 0..<bound.
    mutating func below(_ bound: Int) -> Int { Int(next()) % bound }

    mutating func bool() -> Bool { next() & 1 == 1 }

    /// 0 to `most` values made by `make`.
    mutating func list<T>(most: Int, _ make: (inout FuzzBytes) -> T) -> [T] {
        (0..<below(most + 1)).map { _ in make(&self) }
    }
}
