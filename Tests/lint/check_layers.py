#!/usr/bin/env python3
"""Checks that Sources/Diffable keeps its layer order (docs/ARCHITECTURE.md).

Each folder of the library belongs to one layer; a layer may use its own declarations and
those of the layers below it, never those above. The check reads every Swift file, collects
the names it declares at the top level (types, protocols, typealiases, free functions), then
looks for each name in the code (comments and string literals removed) of every lower layer. A hit is a back-edge: it prints FILE:LINE, the
name, and where that name is declared, and the check fails.

    check_layers.py [SOURCE_ROOT]     (default: Sources/Diffable)

Members that an extension adds to a lower layer's type are not followed (their names, such as
`append` or `keys`, collide with the standard library's); a layer reaching such a member still
has to name the type or reach it through one, which is checked.
"""
import re
import sys
from pathlib import Path

# Lowest first. A folder not listed here fails the check, so a new folder has to be placed.
LAYERS = [
    ("Support", ["Support"]),  # leaf utilities usable by every layer
    ("Keys", ["Keys"]),  # identifier -> 64-bit key, the identifier table
    ("Engine", ["Engine"]),  # the only CDiffCore importers
    ("Model", ["Model"]),  # the two snapshot types
    ("Diffing", ["Diffing"]),  # differences, batches, steps, batch validation
    ("DataSource", ["DataSource"]),  # the data source driving a ListView
]
IGNORED_DIRS = {"Diffable.docc"}
# The layers that may import the C core: Keys (key hashing, the identifier table, the core's
# errors) and Engine (contexts, the diff call). Everything above reaches C through them.
C_IMPORTERS = {"Keys", "Engine"}
C_IMPORT = re.compile(r"^\s*(?:@_implementationOnly\s+|(?:internal|package|public)\s+)?import\s+CDiffCore\b")

TYPE_DECL = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final|indirect|nonisolated)\s+)*"
    r"(struct|class|enum|protocol|typealias|actor|func)\s+([A-Za-z_]\w*)"
)
IDENT = re.compile(r"[A-Za-z_]\w*")


def strip_code(text: str) -> list[str]:
    """The file's lines with comments and string literals blanked (line numbers kept)."""
    out, i, n = [], 0, len(text)
    buf = []
    depth = 0  # nested /* */ depth
    while i < n:
        c = text[i]
        if depth:
            if text.startswith("*/", i):
                depth -= 1
                i += 2
                continue
            if text.startswith("/*", i):
                depth += 1
                i += 2
                continue
            buf.append("\n" if c == "\n" else " ")
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth = 1
            i += 2
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            buf.append("".join("\n" if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            buf.append(" " * (min(j + 1, n) - i))
            i = j + 1
        else:
            buf.append(c)
            i += 1
    out = "".join(buf).split("\n")
    return out


def layer_of(path: Path, root: Path) -> str | None:
    top = path.relative_to(root).parts[0]
    for name, folders in LAYERS:
        if top in folders:
            return name
    return None


def main() -> int:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "Sources/Diffable")
    rank = {name: i for i, (name, _) in enumerate(LAYERS)}
    files, problems = [], []
    for path in sorted(root.rglob("*.swift")):
        if IGNORED_DIRS & set(path.relative_to(root).parts):
            continue
        layer = layer_of(path, root)
        if path.parent == root or layer is None:
            problems.append(f"{path}: not in a layer folder (known: {', '.join(f for _, fs in LAYERS for f in fs)})")
            continue
        files.append((path, layer, strip_code(path.read_text(encoding="utf-8"))))

    declared: dict[str, dict[str, tuple[Path, int]]] = {}  # name -> layer -> first declaration
    for path, layer, lines in files:
        depth = 0
        for number, line in enumerate(lines, 1):
            if depth == 0:
                m = TYPE_DECL.match(line)
                if m:
                    declared.setdefault(m.group(2), {}).setdefault(layer, (path, number))
            depth += line.count("{") - line.count("}")

    for path, layer, lines in files:
        for number, line in enumerate(lines, 1):
            if C_IMPORT.match(line) and layer not in C_IMPORTERS:
                problems.append(f"{path}:{number}: {layer} imports CDiffCore; only {', '.join(sorted(C_IMPORTERS))} may")

    owner = {name: next(iter(layers.items())) for name, layers in declared.items() if len(layers) == 1}
    for path, layer, lines in files:
        for number, line in enumerate(lines, 1):
            for m in IDENT.finditer(line):
                name = m.group(0)
                if name not in owner:
                    continue
                home, (where, at) = owner[name]
                if rank[home] > rank[layer]:
                    problems.append(
                        f"{path}:{number}: {layer} uses `{name}` from {home} ({where}:{at}); "
                        f"{layer} may use only {', '.join(n for n, _ in LAYERS[: rank[layer] + 1])}"
                    )
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"check_layers: {len(problems)} reference(s) against the layer order", file=sys.stderr)
        return 1
    print(f"check_layers: {len(files)} files in {len(LAYERS)} layers, no reference from a lower layer to a higher one")
    return 0


if __name__ == "__main__":
    sys.exit(main())
