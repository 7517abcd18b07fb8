/// libFuzzer target for the snapshot mutation API (docs/RELIABILITY_METHOD.md, G6): the input's first
/// byte picks the item type (integers, or integers whose hash is constant so every key
/// collides), every later byte feeds a flat snapshot and an outline, one decoded operation
/// at a time, each checked against its naive model (Tests/DiffableTests/TestSupport).
/// Built by `make fuzz-deep` / `make fuzz-swift`; `make fuzz-replay-swift` replays the corpus.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSnapshotOperations(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var bytes = FuzzBytes(data, count: size)
    if bytes.bool() {
        runOperations(&bytes) { FuzzCollidingItem(value: $0) }
    } else {
        runOperations(&bytes) { $0 }
    }
    return 0
}

/// The most operations one input runs (longer inputs are cut there, keeping runs fast).
let maximumOperations = 120

func runOperations<Item: Hashable>(_ bytes: inout FuzzBytes, item: @escaping (Int) -> Item) {
    var flat = FlatSnapshotRun(makeItem: item)
    var outline = OutlineSnapshotRun(makeItem: item)
    var count = 0
    while !bytes.isAtEnd && count < maximumOperations {
        if bytes.bool() { outline.step(&bytes) } else { flat.step(&bytes) }
        count += 1
    }
}

/// An integer identifier whose hash is constant: only `==` tells two apart.
struct FuzzCollidingItem: Hashable, CustomStringConvertible {
    var value: Int
    func hash(into hasher: inout Hasher) { hasher.combine(0) }
    var description: String { "c\(value)" }
}
