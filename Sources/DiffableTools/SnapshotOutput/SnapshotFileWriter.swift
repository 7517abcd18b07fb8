import DiffableJSONText

/// Writes a snapshot document in a file form (the inputs `diffable generate` makes).
public enum SnapshotFileWriter {
    /// The JSON form, one section per line; empty refresh lists are left out.
    /// - Complexity: O(bytes written).
    public static func json(_ document: SnapshotDocument) -> [UInt8] {
        typealias Key = SnapshotFormatKeys.Document
        typealias SectionKey = SnapshotFormatKeys.Section
        var out = JSONText()
        func key(_ name: String) {
            out.appendString(name)
            out.append(": ")
        }
        func strings(_ values: [String]) {
            out.append("[")
            for (position, value) in values.enumerated() {
                if position > 0 { out.append(", ") }
                out.appendString(value)
            }
            out.append("]")
        }
        out.append("{")
        key(Key.sections.rawValue)
        out.append("[")
        for (index, section) in document.sections.enumerated() {
            out.append(index == 0 ? "\n{" : ",\n{")
            key(SectionKey.id.rawValue)
            out.appendString(section.id)
            out.append(", ")
            key(SectionKey.items.rawValue)
            strings(section.items)
            out.append("}")
        }
        out.append("\n]")
        for list in Key.refreshLists where !document.list(list).isEmpty {
            out.append(", ")
            key(list.rawValue)
            strings(document.list(list))
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
