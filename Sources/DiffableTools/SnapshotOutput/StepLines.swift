import Diffable
import DiffableJSONText

/// Sequential steps as text for pipelines (`diffable diff --format steps`): one step a line,
/// its name then its indices separated by spaces, in the order they must be applied.
///
/// ```
/// deleteItem 0 7          section 0, item 7
/// moveSection 3 1         from, to
/// moveItem 2 5 0 1        from section item, to section item
/// insertItem 1 0
/// reloadSection 2
/// ```
public enum StepLines {
    /// - Complexity: O(steps).
    public static func encode(_ steps: [ListStep]) -> [UInt8] {
        var out = JSONText(capacity: steps.count * 20)
        for step in steps {
            switch step {
            case .deleteSection(let index): line(&out, "deleteSection", [index])
            case .insertSection(let index): line(&out, "insertSection", [index])
            case .moveSection(let from, let to): line(&out, "moveSection", [from, to])
            case .reloadSection(let index): line(&out, "reloadSection", [index])
            case .deleteItem(let path): line(&out, "deleteItem", [path.section, path.item])
            case .insertItem(let path): line(&out, "insertItem", [path.section, path.item])
            case .moveItem(let from, let to): line(&out, "moveItem", [from.section, from.item, to.section, to.item])
            case .reloadItem(let path): line(&out, "reloadItem", [path.section, path.item])
            case .reconfigureItem(let path): line(&out, "reconfigureItem", [path.section, path.item])
            }
        }
        return out.bytes
    }

    private static func line(_ out: inout JSONText, _ name: StaticString, _ numbers: [Int]) {
        out.append(name)
        for number in numbers {
            out.append(byte: UInt8(ascii: " "))
            out.append(number)
        }
        out.append(byte: 0x0A)
    }
}
