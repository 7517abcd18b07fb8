/// Writes a snapshot document in a file form (the inputs `diffable generate` makes).
public enum SnapshotFileWriter {
    /// The JSON form, one section per line. - Complexity: O(bytes written).
    public static func json(_ document: SnapshotDocument) -> [UInt8] {
        var out = JSONBytes()
        out.append("{\"sections\": [")
        for (index, section) in document.sections.enumerated() {
            out.append(index == 0 ? "\n{\"id\": " : ",\n{\"id\": ")
            out.appendString(section.id)
            out.append(", \"items\": [")
            for (position, item) in section.items.enumerated() {
                if position > 0 { out.append(", ") }
                out.appendString(item)
            }
            out.append("]}")
        }
        out.append("\n]")
        for (key, values) in [
            ("reloadItems", document.reloadItems), ("reconfigureItems", document.reconfigureItems),
            ("reloadSections", document.reloadSections),
        ] where !values.isEmpty {
            out.append(", \"\(key)\": [")
            for (position, value) in values.enumerated() {
                if position > 0 { out.append(", ") }
                out.appendString(value)
            }
            out.append("]")
        }
        out.append("}\n")
        return out.bytes
    }

    /// The TSV form: `section<TAB>item` per item, `section<TAB>` for an empty section.
    /// - Complexity: O(bytes written).
    public static func tsv(_ document: SnapshotDocument) -> [UInt8] {
        var out: [UInt8] = []
        for section in document.sections {
            if section.items.isEmpty {
                out += section.id.utf8
                out += [0x09, 0x0A]
            }
            for item in section.items {
                out += section.id.utf8
                out.append(0x09)
                out += item.utf8
                out.append(0x0A)
            }
        }
        return out
    }
}
