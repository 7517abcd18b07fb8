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

from reference import diff

OUTPUT = pathlib.Path(__file__).resolve().parent.parent / "Fixtures" / "generated"

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


def fixtures():
    for prefix, seeds, max_sections, max_items in PLANS:
        for seed in seeds:
            old, new = random_pair(random.Random(seed), max_sections, max_items)
            name = f"{prefix}-{seed:04d}"
            yield name, {"format": 1, "name": name,
                         "about": f"generated: seed {seed}, up to {max_sections} sections of {max_items} items",
                         "old": old, "new": new, "expect": diff(old, new)}


def render(fixture):
    return json.dumps(fixture, ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "\n"


def main():
    check = "--check" in sys.argv[1:]
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
    print(f"{len(expected)} generated fixtures {'match' if check else 'written'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
