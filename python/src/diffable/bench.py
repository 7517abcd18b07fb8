"""The package's benchmark: ``python -m diffable.bench`` (or ``make python-bench``).

Every configuration (tool x scenario x identifier kind x size) runs in its own process, capped at
--timeout seconds (DNF, never extrapolated) and --memory-gb of address space (OOM). Each output is
checked (replayed to the new list, or compared with the exact delete/insert sets) so nothing is
fast by being wrong. Reported: seconds (best of --runs), peak RSS of the process, and moves next
to the minimum (matched - LIS). Tools:

  diffable           diffable.diff on Python lists
  diffable-buffers   diffable.diff on numpy int64 arrays / pyarrow string arrays
  diffable-core      the C core's share of that call (hashing + diff, GIL released)
  python-dict-lis    pure Python: dict index, bisect LIS; the same output as diffable
  difflib            difflib.SequenceMatcher(autojunk=False).get_opcodes()
  difflib-autojunk   the same with autojunk=True
  deepdiff           DeepDiff(old, new) (ordered); replayed with deepdiff.Delta
  rapidfuzz          rapidfuzz.distance.Levenshtein.editops
  polars-antijoin    two anti-joins: deletes and inserts only, no moves

A tool that did not finish at a size is not run at larger sizes of the same scenario and kind
(shown DNF). ``--threads`` also measures 4 threads diffing independent lists against 1 thread.
"""
import argparse
import bisect
import json
import os
import random
import resource
import signal
import statistics
import subprocess
import sys
import time

TOOLS = ["diffable", "diffable-buffers", "python-dict-lis", "difflib", "difflib-autojunk", "deepdiff", "rapidfuzz",
         "polars-antijoin"]
SCENARIOS = ["churn", "shuffle", "move-one", "append"]


def make_lists(scenario, kind, n, seed=42):
    """Deterministic old/new lists: churn (10% deleted, 10% inserted, 10% moved), shuffle, one
    element moved from front to back, and 1% appended."""
    rng = random.Random(seed)
    old = list(range(0, 2 * n, 2))
    rng.shuffle(old)
    fresh = iter(range(1, 2 * n + 2, 2))  # odd numbers never occur in old
    if scenario == "shuffle":
        new = old[:]
        rng.shuffle(new)
    elif scenario == "move-one":
        new = old[1:] + old[:1]
    elif scenario == "append":
        new = old + [next(fresh) for _ in range(max(1, n // 100))]
    else:
        # Placed by sort keys so that building 10^7 stays O(n log n): survivors keep their index,
        # moved ones and inserted ones get random places.
        placed = [(float(i), x) for i, x in enumerate(old) if rng.random() >= 0.1]
        for k in rng.sample(range(len(placed)), len(placed) // 9):
            placed[k] = (rng.random() * n, placed[k][1])
        placed += [(rng.random() * n, next(fresh)) for _ in range(n // 10)]
        placed.sort(key=lambda p: p[0])
        new = [x for _, x in placed]
    if kind == "str":
        return [f"item-{x:09d}" for x in old], [f"item-{x:09d}" for x in new]
    return old, new


def fewest_moves(old, new):
    """matched - LIS, by the pure-Python path (the reference for every tool's moves)."""
    return python_dict_lis(old, new)[2]


def python_dict_lis(old, new):
    """Deletes, inserts and the minimal moves in pure Python (dict + patience LIS). O(n log n)."""
    index = {x: i for i, x in enumerate(old)}
    new_to_old = [index.get(x, -1) for x in new]
    present = set(new)
    deletes = [i for i, x in enumerate(old) if x not in present]
    inserts = [j for j, o in enumerate(new_to_old) if o < 0]
    kept = [o for o in new_to_old if o >= 0]
    tails = []
    for value in kept:
        k = bisect.bisect_left(tails, value)
        if k == len(tails):
            tails.append(value)
        else:
            tails[k] = value
    return deletes, inserts, len(kept) - len(tails)


def apply_opcodes(old, new, opcodes):
    out = []
    for tag, i1, i2, j1, j2 in opcodes:
        out.extend(old[i1:i2] if tag == "equal" else new[j1:j2])
    return out


def run_tool(tool, old, new):
    """(seconds, moves or None, check) where check() raises if the output is wrong."""
    if tool in ("diffable", "diffable-buffers", "diffable-core"):
        import diffable
        if tool != "diffable":
            if isinstance(old[0], int):
                import numpy
                old, new = numpy.array(old, dtype=numpy.int64), numpy.array(new, dtype=numpy.int64)
            else:
                import pyarrow
                old, new = pyarrow.array(old), pyarrow.array(new)
        started = time.perf_counter()
        result = diffable.diff(old, new)
        seconds = time.perf_counter() - started
        if tool == "diffable-core":
            seconds = result.core_seconds

        def check():
            assert result.apply(list(old)) == list(new)
        return seconds, len(result.move_from), check
    if tool == "python-dict-lis":
        started = time.perf_counter()
        deletes, inserts, moves = python_dict_lis(old, new)
        seconds = time.perf_counter() - started

        def check():
            assert len(old) - len(deletes) + len(inserts) == len(new)
        return seconds, moves, check
    if tool.startswith("difflib"):
        import difflib
        started = time.perf_counter()
        opcodes = difflib.SequenceMatcher(None, old, new, autojunk=tool.endswith("autojunk")).get_opcodes()
        seconds = time.perf_counter() - started
        return seconds, None, lambda: _equal(apply_opcodes(old, new, opcodes), new)
    if tool == "rapidfuzz":
        from rapidfuzz.distance import Levenshtein
        started = time.perf_counter()
        ops = Levenshtein.editops(old, new)
        seconds = time.perf_counter() - started
        return seconds, None, lambda: _equal(apply_opcodes(old, new, ops.as_opcodes()), new)
    if tool == "deepdiff":
        from deepdiff import DeepDiff, Delta
        started = time.perf_counter()
        found = DeepDiff(old, new)
        seconds = time.perf_counter() - started
        return seconds, None, lambda: _equal(old + Delta(found), new)
    if tool == "polars-antijoin":
        import polars
        a, b = polars.DataFrame({"id": old}), polars.DataFrame({"id": new})
        started = time.perf_counter()
        deleted = a.join(b, on="id", how="anti")
        inserted = b.join(a, on="id", how="anti")
        seconds = time.perf_counter() - started

        def check():
            assert set(deleted["id"].to_list()) == set(old) - set(new)
            assert set(inserted["id"].to_list()) == set(new) - set(old)
        return seconds, None, check
    raise ValueError(f"unknown tool {tool}")


def _equal(got, want):
    assert list(got) == list(want), "the tool's output does not replay to the new list"


def one(spec, runs, timeout):
    """Runs one configuration in this process and prints one JSON line. The cap counts the tool's
    runs only: SIGALRM (default action: the process ends) fires `timeout` seconds after the data
    is made."""
    tool, scenario, kind, n = spec.split(",")
    old, new = make_lists(scenario, kind, int(float(n)))
    baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    best, moves, check = None, None, None
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    for _ in range(runs):
        seconds, moves, check = run_tool(tool, old, new)
        best = seconds if best is None else min(best, seconds)
        if best > 5:  # one run is enough for a slow configuration
            break
    signal.setitimer(signal.ITIMER_REAL, 0)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    check()
    record = {"tool": tool, "scenario": scenario, "kind": kind, "n": int(float(n)), "seconds": best,
              "moves": moves, "fewest": fewest_moves(old, new), "peak_mb": peak / 1024,
              "extra_mb": (peak - baseline) / 1024}
    if tool == "diffable-buffers":  # the core's share of the same call, for the three-path comparison
        record["core_seconds"] = run_tool("diffable-core", old, new)[0]
    print(json.dumps(record))


def spawn(spec, args):
    command = [sys.executable, "-m", "diffable.bench", "--one", spec, "--runs", str(args.runs),
               "--timeout", str(args.timeout)]
    limit = int(args.memory_gb * 2**30)

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:  # making 10^7 identifiers in Python takes a while: the process gets more than the cap
        done = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout * 3 + 600, preexec_fn=cap)
    except subprocess.TimeoutExpired:
        return {"status": "DNF"}
    if done.returncode == -signal.SIGALRM:
        return {"status": "DNF"}
    if done.returncode != 0:
        failed = "OOM" if "MemoryError" in done.stderr else "FAILED"
        return {"status": failed, "error": done.stderr.strip().splitlines()[-1:] }
    return json.loads(done.stdout.strip().splitlines()[-1])


def threads(n, repeats=5):
    """4 independent diffs of numpy int64 arrays, one after another and then in 4 threads.

    One warm-up of each (first-touch page faults and the pooled contexts would otherwise land
    on whichever goes first), then ``repeats`` alternated pairs. Returns the serial and parallel
    seconds of each pair.
    """
    import threading

    import numpy

    import diffable
    rng = numpy.random.default_rng(1)
    jobs = [(numpy.arange(n, dtype=numpy.int64), rng.permutation(n).astype(numpy.int64)) for _ in range(4)]

    def one_after_another():
        started = time.perf_counter()
        for old, new in jobs:
            diffable.diff(old, new)
        return time.perf_counter() - started

    def in_threads():
        workers = [threading.Thread(target=diffable.diff, args=job) for job in jobs]
        started = time.perf_counter()
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        return time.perf_counter() - started

    one_after_another(), in_threads()
    pairs = [(one_after_another(), in_threads()) for _ in range(repeats)]
    return [s for s, _ in pairs], [p for _, p in pairs]


def print_threads(n, repeats):
    serial, parallel = threads(n, repeats)
    ratios = sorted(s / p for s, p in zip(serial, parallel))
    print(f"\n4 diffs of {n:,} shuffled int64 (numpy), {repeats} alternated pairs after a warm-up: "
          f"one after another {statistics.median(serial):.3f} s, in 4 threads {statistics.median(parallel):.3f} s "
          f"(medians); speed-up {statistics.median(ratios):.2f}x median, {ratios[0]:.2f}-{ratios[-1]:.2f}x range, "
          f"on {os.cpu_count()} cores")


def cell(record):
    if "status" in record:
        return record["status"]
    return f"{record['seconds']:.3g} s"


def table(records, sizes, kinds, scenarios, tools):
    lines = []
    for kind in kinds:
        for scenario in scenarios:
            lines.append(f"\n**{kind} identifiers, {scenario}** (seconds; moves / fewest; peak RSS)\n")
            lines.append("| tool | " + " | ".join(f"{n:.0e}".replace("e+0", "e") for n in sizes) + " |")
            lines.append("|---|" + "---|" * len(sizes))
            for tool in tools:
                row = []
                for n in sizes:
                    r = records.get((tool, scenario, kind, n))
                    if r is None:
                        row.append("")
                    elif "status" in r:
                        row.append(r["status"])
                    else:
                        moves = f"{r['moves']}/{r['fewest']}" if r["moves"] is not None else "—"
                        row.append(f"{r['seconds']:.3g} s; {moves}; {r['peak_mb']:.0f} MB")
                lines.append(f"| {tool} | " + " | ".join(row) + " |")
                if tool == "diffable-buffers":
                    core = [f"{records[(tool, scenario, kind, n)]['core_seconds']:.3g} s"
                            if "core_seconds" in records.get((tool, scenario, kind, n), {}) else "" for n in sizes]
                    lines.append("| diffable-core | " + " | ".join(core) + " |")
    return "\n".join(lines)


def plot(records, sizes, path, kind="int", scenario="churn"):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    figure, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for axis, kind in zip(axes, ("int", "str")):
        for tool in TOOLS:
            points = [(n, r["seconds"]) for n in sizes if "seconds" in (r := records.get((tool, scenario, kind, n), {}))]
            if points:
                axis.plot(*zip(*points), marker="o", label=tool)
        axis.set(xscale="log", yscale="log", xlabel="identifiers", ylabel="seconds",
                 title=f"{kind} identifiers, {scenario}")
        axis.axhline(60, color="grey", linestyle=":", linewidth=1)
        axis.grid(True, which="major", alpha=0.3)
    axes[1].legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m diffable.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1e3,1e4,1e5,1e6,1e7")
    parser.add_argument("--kinds", default="int,str")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    parser.add_argument("--tools", default=",".join(TOOLS))
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--memory-gb", type=float, default=8)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=float, default=0, help="also time 4 threads vs 1 at this size")
    parser.add_argument("--only-threads", action="store_true", help="with --threads: time the threads alone")
    parser.add_argument("--json", help="write every record here")
    parser.add_argument("--plot", help="write a PNG of the churn scenario here")
    parser.add_argument("--from-json", help="comma-separated --json files: print their table (and --plot), run nothing")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        return one(args.one, args.runs, args.timeout)
    if args.only_threads:
        if not args.threads:
            parser.error("--only-threads needs --threads N")
        print_threads(int(args.threads), max(args.runs, 5))
        return None
    sizes = [int(float(s)) for s in args.sizes.split(",")]
    kinds, scenarios, tools = args.kinds.split(","), args.scenarios.split(","), args.tools.split(",")
    records = {}
    if args.from_json:
        for path in args.from_json.split(","):
            with open(path) as saved:
                for record in json.load(saved):
                    records[(record.pop("tool"), record.pop("scenario"), record.pop("kind"), record.pop("n"))] = record
        print(table(records, sizes, kinds, scenarios, tools))
        if args.plot:
            plot(records, sizes, args.plot)
        return None
    for kind in kinds:
        for scenario in scenarios:
            for tool in tools:
                stopped = None
                for n in sizes:
                    if stopped:
                        records[(tool, scenario, kind, n)] = {"status": stopped}
                        continue
                    record = spawn(f"{tool},{scenario},{kind},{n}", args)
                    records[(tool, scenario, kind, n)] = record
                    print(f"{kind:>3} {scenario:>8} {tool:>16} {n:>9}: {cell(record)}", file=sys.stderr, flush=True)
                    if "status" in record:
                        stopped = record["status"]
    print(table(records, sizes, kinds, scenarios, tools))
    if args.threads:
        print_threads(int(args.threads), max(args.runs, 5))
    if args.json:
        with open(args.json, "w") as out:
            json.dump([dict(zip(("tool", "scenario", "kind", "n"), k), **v) for k, v in records.items()], out, indent=1)
    if args.plot:
        plot(records, sizes, args.plot)


if __name__ == "__main__":
    main()
