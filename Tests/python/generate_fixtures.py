"""Writes the generated fixtures (Tests/Fixtures/generated) from fixed seeds.

The expected output comes from reference.py, the independent Python implementation;
C, Swift and the reference must then all agree on every fixture.

    python3 generate_fixtures.py           # (re)write the files
    python3 generate_fixtures.py --check   # exit 1 if a committed file differs (CI runs this)
"""
import json
import pathlib
import random
import sys

from outline import is_outline, outline_diff, rows_document
from reference import diff
from reference_steps import steps

OUTPUT = pathlib.Path(__file__).resolve().parent.parent / "Fixtures" / "generated"
HAND = OUTPUT.parent / "hand"

# (name prefix, seeds, max sections, max items per section)
PLANS = [
    ("small", range(1, 61), 6, 8),
    ("medium", range(101, 113), 30, 40),
    ("large", range(1001, 1004), 100, 100),
]


def random_pair(rng, max_sections, max_items):
    counter = iter(range(10**9))

    def item():
        n = next(counter)
        return f"é{n}ü" if rng.random() < 0.1 else f"i{n}"

    old = [(f"S{k}", [item() for _ in range(rng.randint(0, max_items))]) for k in range(rng.randint(0, max_sections))]
    new = [(name, list(items)) for name, items in old if rng.random() >= 0.15]
    for k in range(rng.randint(0, 2)):
        new.insert(rng.randint(0, len(new)), (f"N{k}", [item() for _ in range(rng.randint(0, 3))]))
    if len(new) > 1 and rng.random() < 0.5:
        for _ in range(rng.randint(1, 2)):
            section = new.pop(rng.randrange(len(new)))
            new.insert(rng.randint(0, len(new)), section)
    for _, items in new:
        items[:] = [i for i in items if rng.random() >= 0.1]
    if new:
        total = sum(len(items) for _, items in new)
        for _ in range(rng.randint(0, max(1, total // 10))):
            source = new[rng.randrange(len(new))][1]
            if source:
                moving = source.pop(rng.randrange(len(source)))
                target = new[rng.randrange(len(new))][1]
                target.insert(rng.randint(0, len(target)), moving)
        for _ in range(rng.randint(0, max(1, total // 10))):
            target = new[rng.randrange(len(new))][1]
            target.insert(rng.randint(0, len(target)), item())
    document_old = {"sections": [{"id": n, "items": i} for n, i in old]}
    document_new = {"sections": [{"id": n, "items": i} for n, i in new]}
    all_new = [i for _, items in new for i in items]
    if all_new:
        document_new["reloadItems"] = [i for i in all_new if rng.random() < 0.05]
        document_new["reconfigureItems"] = [i for i in all_new if rng.random() < 0.05]
    if new and rng.random() < 0.2:
        document_new["reloadSections"] = [new[rng.randrange(len(new))][0]]
    return document_old, document_new


# Outline pairs: (name prefix, seeds, max items, max depth).
OUTLINE_PLANS = [
    ("outline-small", range(1, 41), 12, 3),
    ("outline-medium", range(101, 117), 80, 4),
    ("outline-large", range(1001, 1005), 400, 6),
]


def _random_forest(rng, count, max_depth, name):
    """A random outline as nested nodes {"id", "expanded", "children"}."""
    roots, parents = [], []  # parents: (node, its depth) for nodes that may get children
    for _ in range(count):
        node = {"id": name(), "expanded": rng.random() < 0.5, "children": []}
        if parents and rng.random() < 0.75:
            parent, depth = rng.choice(parents)
            parent["children"].insert(rng.randint(0, len(parent["children"])), node)
            depth += 1
        else:
            roots.insert(rng.randint(0, len(roots)), node)
            depth = 0
        if depth < max_depth - 1:
            parents.append((node, depth))
    return roots


def _walk(roots, parent=None):
    """(node, parent node, sibling list) for every node, depth first."""
    for node in roots:
        yield node, parent, roots
        yield from _walk(node["children"], node)


def _mutate(rng, roots, name):
    """The new outline: expansion toggled, subtrees deleted, moved (reparented) and added."""
    def everything():
        return list(_walk(roots))

    for node, _, _ in everything():
        if rng.random() < 0.25:
            node["expanded"] = not node["expanded"]
    for _ in range(rng.randint(0, 2)):
        nodes = everything()
        if nodes:
            node, _, siblings = rng.choice(nodes)
            siblings.remove(node)
    for _ in range(rng.randint(1, 4)):
        nodes = everything()
        if not nodes:
            break
        node, _, siblings = rng.choice(nodes)
        inside = {id(n) for n, _, _ in _walk([node])}
        siblings.remove(node)
        target = rng.choice([None] + [n for n, _, _ in everything() if id(n) not in inside])
        children = roots if target is None else target["children"]
        children.insert(rng.randint(0, len(children)), node)
    if len(roots) > 1 and rng.random() < 0.5:  # root rows are always visible: a move that shows
        roots.insert(rng.randint(0, len(roots) - 1), roots.pop(rng.randrange(len(roots))))
    for _ in range(rng.randint(0, 3)):
        nodes = everything()
        target = rng.choice(nodes)[0] if nodes and rng.random() < 0.8 else None
        children = roots if target is None else target["children"]
        children.insert(rng.randint(0, len(children)), {"id": name(), "expanded": rng.random() < 0.5, "children": []})


def _entry(node, parent):
    entry = {"id": node["id"]}
    if parent is not None:
        entry["parent"] = parent["id"]
    if node["expanded"]:
        entry["expanded"] = True
    return entry


def _entries(rng, roots):
    """The outline form: depth first, or the sibling lists interleaved at random (children may
    then precede their parents; siblings keep their order)."""
    if rng.random() < 0.5:
        return [_entry(node, parent) for node, parent, _ in _walk(roots)]
    queues = [(None, list(roots))] + [(node, list(node["children"])) for node, _, _ in _walk(roots)]
    entries = []
    while any(queue for _, queue in queues):
        parent, queue = rng.choice([q for q in queues if q[1]])
        entries.append(_entry(queue.pop(0), parent))
    return entries


def _break(rng, entries, name):
    """Makes an outline invalid: a repeated identifier, an unknown parent or a cycle."""
    if not entries:
        entries.append({"id": "loop", "parent": "loop"})
        return
    kind = rng.choice(["duplicate", "unknown", "cycle"])
    if kind == "duplicate":
        entries.insert(rng.randint(0, len(entries)), {"id": rng.choice(entries)["id"]})
    elif kind == "unknown":
        rng.choice(entries)["parent"] = name()
    else:
        # The new parent is the item itself or one of its descendants: its chain loops.
        parents = {e["id"]: e.get("parent") for e in entries}
        start = rng.choice(entries)["id"]

        def descends(item):
            while item is not None:
                if item == start:
                    return True
                item = parents[item]
            return False

        loop_to = rng.choice([e["id"] for e in entries if descends(e["id"])])
        next(e for e in entries if e["id"] == start)["parent"] = loop_to


def random_outline_pair(rng, max_items, max_depth):
    counter = iter(range(10**9))

    def name():
        n = next(counter)
        return f"é{n}ü" if rng.random() < 0.1 else f"o{n}"

    roots = _random_forest(rng, rng.randint(0, max_items), max_depth, name)
    old = {"outline": _entries(rng, roots)}
    _mutate(rng, roots, name)
    new = {"outline": _entries(rng, roots)}
    if rng.random() < 0.1:
        _break(rng, rng.choice([old, new])["outline"], name)
    return old, new


def fixtures():
    for prefix, seeds, max_sections, max_items in PLANS:
        for seed in seeds:
            old, new = random_pair(random.Random(seed), max_sections, max_items)
            name = f"{prefix}-{seed:04d}"
            yield name, {"format": 1, "name": name,
                         "about": f"generated: seed {seed}, up to {max_sections} sections of {max_items} items",
                         "old": old, "new": new, "expect": diff(old, new)}
    for prefix, seeds, max_items, max_depth in OUTLINE_PLANS:
        for seed in seeds:
            old, new = random_outline_pair(random.Random(seed), max_items, max_depth)
            name = f"{prefix}-{seed:04d}"
            yield name, {"format": 1, "name": name,
                         "about": f"generated outline: seed {seed}, up to {max_items} items, {max_depth} levels, "
                                  "then expansion toggled and subtrees deleted, moved and added",
                         "old": old, "new": new, "expect": outline_diff(old, new)}


def render(fixture):
    return json.dumps(fixture, ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "\n"


def hand_steps(check):
    """Hand-written fixtures keep their hand-written batches; their `expect.steps` is the reference's
    steps of those batches, written in as one line after `"expect": {` so the layout stays. Returns
    the files whose steps are missing or differ (check) or were rewritten."""
    changed = []
    for path in sorted(HAND.glob("*.json")):
        text = path.read_text(encoding="utf-8")
        fixture = json.loads(text)
        expect = fixture["expect"]
        if "batches" not in expect:
            continue
        rows = (lambda d: rows_document(d) if is_outline(d) else d)
        wanted = steps(rows(fixture["old"]), rows(fixture["new"]), expect["batches"])
        if expect.get("steps") == wanted:
            continue
        changed.append(path.name)
        if check:
            continue
        lines = [line for line in text.split("\n") if not line.lstrip().startswith('"steps": ')]
        at = next(k for k, line in enumerate(lines) if line.strip() == '"expect": {')
        indent = lines[at][: len(lines[at]) - len(lines[at].lstrip())] + "  "
        lines.insert(at + 1, f'{indent}"steps": {json.dumps(wanted, ensure_ascii=False)},')
        path.write_text("\n".join(lines), encoding="utf-8")
    return changed


def main():
    check = "--check" in sys.argv[1:]
    hand = hand_steps(check)
    if check and hand:
        print(f"hand fixtures without their reference steps: {hand} (run make fixtures)", file=sys.stderr)
        return 1
    OUTPUT.mkdir(parents=True, exist_ok=True)
    expected = {f"{name}.json": render(fixture) for name, fixture in fixtures()}
    drift = []
    for filename, text in expected.items():
        path = OUTPUT / filename
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                drift.append(filename)
        else:
            path.write_text(text, encoding="utf-8")
    extra = sorted(p.name for p in OUTPUT.glob("*.json") if p.name not in expected)
    if check and (drift or extra):
        print(f"generated fixtures drifted: {drift + extra} (run make fixtures)", file=sys.stderr)
        return 1
    for name in extra:
        (OUTPUT / name).unlink()
    print(f"{len(expected)} generated fixtures {'match' if check else 'written'}"
          + ("" if check else f", steps written into {len(hand)} hand fixtures"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
