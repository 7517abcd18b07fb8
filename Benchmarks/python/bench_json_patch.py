"""diffable.json_patch against jsonpatch.make_patch (PyPI), run from the repository:

    python Benchmarks/python/bench_json_patch.py [--sizes 1e3,1e4,1e5] [--runs 5]

The document is {"rows": [...]}, n rows {"id", "name", "score"} with churn: 10% of the rows
deleted, 10% inserted, 10% moved, 5% with a changed score. Each size is one process alternating
the two tools (diffable, jsonpatch, diffable, ...) the same number of times; the ratio is of the
CPU-time medians. Each patch is applied with jsonpatch.apply_patch and must give the new
document; the table also counts each patch's operations (and moves) and its JSON size. A
jsonpatch run over --timeout seconds stops that size (DNF) and the larger ones.
"""
import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time


def documents(n, seed=42):
    rng = random.Random(seed)
    rows = [{"id": i, "name": f"row/{i}~", "score": rng.randrange(1000)} for i in range(n)]
    rng.shuffle(rows)
    kept = [dict(r) for r in rows if rng.random() >= 0.1]
    for r in rng.sample(kept, len(kept) // 20):
        r["score"] += 1
    placed = [(float(i), r) for i, r in enumerate(kept)]
    for k in rng.sample(range(len(placed)), len(placed) // 9):
        placed[k] = (rng.random() * n, placed[k][1])
    placed += [(rng.random() * n, {"id": n + i, "name": f"new/{i}", "score": 0}) for i in range(n // 10)]
    placed.sort(key=lambda p: p[0])
    return {"rows": rows}, {"rows": [r for _, r in placed]}


def one(n, runs, timeout):
    import diffable
    import jsonpatch

    old, new = documents(n)
    tools = {"diffable": lambda: diffable.json_patch(old, new, key="id"),
             "jsonpatch": lambda: list(jsonpatch.make_patch(old, new))}
    times = {tool: [] for tool in tools}
    patches = {}
    signal.signal(signal.SIGALRM, signal.SIG_DFL)  # a C call cannot be interrupted: end the process
    for _ in range(runs):
        for tool, run in tools.items():
            signal.setitimer(signal.ITIMER_REAL, timeout)
            started = time.process_time()
            patches[tool] = run()
            times[tool].append(time.process_time() - started)
            signal.setitimer(signal.ITIMER_REAL, 0)
    record = {"n": n, "runs": runs, "load": os.getloadavg()}
    for tool, patch in patches.items():
        assert jsonpatch.apply_patch(old, patch) == new, f"{tool}'s patch does not give the new document"
        record[tool] = {"cpu_median": statistics.median(times[tool]), "cpu_min": min(times[tool]),
                        "operations": len(patch), "moves": sum(op["op"] == "move" for op in patch),
                        "bytes": len(json.dumps(patch))}
    print(json.dumps(record))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1e3,1e4,1e5")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one is not None:
        one(args.one, args.runs, args.timeout)
        return
    print("| n | runs | diffable CPU s (min) | jsonpatch CPU s (min) | jsonpatch / diffable | operations: diffable; jsonpatch "
          "| moves: diffable; jsonpatch | patch bytes: diffable; jsonpatch | load |")
    print("|---:|---:|---:|---:|---:|---|---|---|---|")
    for size in args.sizes.split(","):
        n = int(float(size))
        done = subprocess.run([sys.executable, os.path.abspath(__file__), "--one", str(n), "--runs", str(args.runs),
                               "--timeout", str(args.timeout)], capture_output=True, text=True)
        if done.returncode != 0:
            print(f"| {n:.0e} | | | DNF (over {args.timeout:g} s, or failed: {done.stderr.strip()[-80:]}) | | | | | |")
            break
        r = json.loads(done.stdout)
        d, j = r["diffable"], r["jsonpatch"]
        print(f"| {n:.0e} | {r['runs']} | {d['cpu_median']:.3g} ({d['cpu_min']:.3g}) | {j['cpu_median']:.3g} "
              f"({j['cpu_min']:.3g}) | **{j['cpu_median'] / d['cpu_median']:.3g}×** | {d['operations']}; "
              f"{j['operations']} | {d['moves']}; {j['moves']} | {d['bytes']}; {j['bytes']} | "
              f"{' '.join(f'{x:.1f}' for x in r['load'])} |")


if __name__ == "__main__":
    main()
