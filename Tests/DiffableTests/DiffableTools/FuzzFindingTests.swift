import Testing

@testable import DiffableTools

/// Regression tests for what `make fuzz-deep` found (docs/TESTING.md, "Fuzzing").
@Suite struct FuzzFindingTests {
    /// `{"sections": [], "x": [[…[inner]…]]}`: an ignored value `depth` arrays deep.
    static func nested(_ depth: Int, inner: String = "") -> [UInt8] {
        Array(
            ("{\"sections\": [], \"x\": " + String(repeating: "[", count: depth) + inner + String(repeating: "]", count: depth) + "}").utf8)
    }

    static func lenientRead(_ bytes: [UInt8]) -> Result<NumberedSnapshotDocument, SnapshotInputError> {
        let reader = SnapshotReader(interner: IdentifierInterner())
        return Result { () throws(SnapshotInputError) in
            try reader.document(from: SnapshotInputBytes(bytes, source: "deep.json"), format: .json, lenient: true)
        }
    }

    /// The diagnosis pass stopped at 1,000 levels while simdjson allows 1,024: a document
    /// simdjson accepted was one the diagnosis rejected, and a rejection named the wrong limit.
    @Test(arguments: [1_001, 1_023])
    func theDiagnosisAcceptsWhatSimdjsonAccepts(depth: Int) throws {
        let bytes = Self.nested(depth)
        #expect(throws: Never.self) { try Self.lenientRead(bytes).get() }
        let diagnosis = bytes.withUnsafeBufferPointer { SnapshotInputDiagnosis.diagnose($0, source: "deep.json", lenient: true) }
        #expect(diagnosis == nil)
    }

    @Test func oneLevelPastSimdjsonsLimitIsRejectedAtThatLevel() throws {
        // 1,023 arrays in the document's object, and a number inside: 1,025 levels.
        let bytes = Self.nested(1_023, inner: "7")
        guard case .failure(let error) = Self.lenientRead(bytes) else {
            Issue.record("accepted a value nested 1,025 levels deep")
            return
        }
        #expect(error.message == "values nested deeper than 1024 levels")
        #expect(error.location?.byteOffset == bytes.firstIndex(of: UInt8(ascii: "7")))
    }
}
