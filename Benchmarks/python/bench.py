"""The Python package's benchmark, run from the repository (it is not installed with the package):

    python Benchmarks/python/bench.py          (or: make python-bench)

Every cell pairs diffable.diff on Python lists with one other tool on the same lists, in one
process: the two alternate (diffable, tool, diffable, tool, ...) the same number of times, and the
ratio is tool / diffable of the medians, so load that comes and goes hits both sides alike. Times
are CPU seconds of the process (time.process_time; wall time is recorded too). A cell whose
tool's first run takes over --slow seconds does --slow-runs rounds instead of --runs, still the
same number on both sides.

Each cell is its own process, under --memory-gb of address space (OOM), and each run of the tool
under a --timeout alarm (DNF: the cell stops, and the tool is not run at larger sizes of that
scenario and kind; never extrapolated). Every output is checked (replayed to the new list, or
compared with diffable's) so nothing is fast by being wrong. Tools:

  diffable-buffers   diffable.diff on numpy int64 arrays / pyarrow string arrays
                     (with the C core's share of the same calls, GIL released)
  python-dict-lis    pure Python, a dict and a bisect LIS, returning what diffable.diff returns:
                     deletes, inserts, moves (old, new), old_to_new and new_to_old
  difflib            difflib.SequenceMatcher(autojunk=False).get_opcodes()
  difflib-autojunk   the same with autojunk=True
  deepdiff           DeepDiff(old, new) (ordered); replayed with deepdiff.Delta
  rapidfuzz          rapidfuzz.distance.Levenshtein.editops
  polars-antijoin    two anti-joins: deletes and inserts only, no moves

Identifier kinds: int; str (ASCII); str-cyrillic and str-cjk (every character of the id in that
script, 2 and 3 bytes in UTF-8); str-mixed (ASCII, Cyrillic and CJK ids in one list).
``--threads`` also measures 4 threads diffing independent lists against 1 thread;
``--self-check`` compares python-dict-lis with diffable.diff on small random lists.
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

TOOLS = ["diffable-buffers", "python-dict-lis", "difflib", "difflib-autojunk", "deepdiff", "rapidfuzz",
         "polars-antijoin"]
SCENARIOS = ["churn", "shuffle", "move-one", "append"]
KINDS = ["int", "str", "str-cyrillic", "str-cjk", "str-mixed"]

# The same shape in three scripts: a word, a hyphen, nine digits. Cyrillic and CJK spell the digits
# in their own script too, so every character of those ids is outside ASCII.
_SCRIPTS = {
    "str": ("item-", "0123456789"),
    "str-cyrillic": ("товар-", "абвгдежзий"),
    "str-cjk": ("商品-", "〇一二三四五六七八九"),
}
_SPELL = {kind: str.maketrans("0123456789", digits) for kind, (_, digits) in _SCRIPTS.items()}


def identifier(kind, x):
    if kind == "str-mixed":
        kind = ("str", "str-cyrillic", "str-cjk")[x % 3]
    return _SCRIPTS[kind][0] + f"{x:09d}".translate(_SPELL[kind])


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
    if kind == "int":
        return old, new
    return [identifier(kind, x) for x in old], [identifier(kind, x) for x in new]


def python_dict_lis(old, new):
    """What diffable.diff returns, in pure Python: (deletes, inserts, moves, old_to_new,
    new_to_old) as lists, moves as (old, new) pairs by ascending new index. The LIS keeps the same
    run as diffable's (the tie-break of docs/ALGORITHM.md), so the moves are equal, not only as
    many. O(n log n); identifiers are assumed unique."""
    index = {x: i for i, x in enumerate(old)}
    get = index.get
    new_to_old = [get(x, -1) for x in new]
    old_to_new = [-1] * len(old)
    inserts, at_new, seq = [], [], []  # seq: the matched ones' old indices, in new order
    for j, o in enumerate(new_to_old):
        if o < 0:
            inserts.append(j)
        else:
            old_to_new[o] = j
            at_new.append(j)
            seq.append(o)
    deletes = [i for i, j in enumerate(old_to_new) if j < 0]
    tails, ends, previous = [], [], [-1] * len(seq)  # tails: values; ends: their positions in seq
    for p, value in enumerate(seq):
        k = bisect.bisect_left(tails, value)
        if k:
            previous[p] = ends[k - 1]
        if k == len(tails):
            tails.append(value)
            ends.append(p)
        else:
            tails[k] = value
            ends[k] = p
    kept = bytearray(len(seq))
    p = ends[-1] if ends else -1
    while p >= 0:
        kept[p] = 1
        p = previous[p]
    moves = [(seq[p], at_new[p]) for p in range(len(seq)) if not kept[p]]
    return deletes, inserts, moves, old_to_new, new_to_old


def diffable_output(result):
    """diffable.diff's result in python_dict_lis's shape."""
    return (result.deletes.tolist(), result.inserts.tolist(),
            list(zip(result.move_from.tolist(), result.move_to.tolist())),
            result.old_to_new.tolist(), result.new_to_old.tolist())


def self_check(cases=3000, seed=7):
    """python_dict_lis equals diffable.diff field by field on small random lists: empty ones,
    reversals, and random deletes, inserts and shuffles, int and every str kind."""
    import diffable
    rng = random.Random(seed)
    for case in range(cases):
        n = rng.choice([0, 1, 2, 3, 5, 8, 13, 40, 200])
        old = rng.sample(range(3 * n + 3), n)
        survivors = [x for x in old if rng.random() < 0.8]
        fresh = [x for x in range(3 * n + 3, 4 * n + 6) if rng.random() < 0.2]
        new = survivors + fresh
        if case % 3 == 0:
            rng.shuffle(new)
        elif case % 3 == 1:  # mostly in order: few moves, long runs to tie-break between
            for _ in range(rng.randrange(3)):
                if new:
                    new.insert(rng.randrange(len(new) + 1), new.pop(rng.randrange(len(new))))
        else:
            new.reverse()
        kind = KINDS[case % len(KINDS)]
        if kind != "int":
            old, new = [identifier(kind, x) for x in old], [identifier(kind, x) for x in new]
        want = diffable_output(diffable.diff(old, new))
        got = python_dict_lis(old, new)
        if tuple(got) != want:
            raise AssertionError(f"python-dict-lis differs from diffable.diff on {old!r} -> {new!r}")
    return cases


def apply_opcodes(old, new, opcodes):
    out = []
    for tag, i1, i2, j1, j2 in opcodes:
        out.extend(old[i1:i2] if tag == "equal" else new[j1:j2])
    return out


def _equal(got, want):
    assert list(got) == list(want), "the tool's output does not replay to the new list"


def prepare(tool, old, new):
    """(run, check): run() does the timed work and returns its output (plus the C core's seconds
    for diffable's buffers); check(output) raises if the output is wrong. Imports and input
    conversions happen here, outside the timing."""
    if tool in ("diffable", "diffable-buffers"):
        import diffable
        a, b = old, new
        if tool == "diffable-buffers":
            if isinstance(old[0], int):
                import numpy
                a, b = numpy.array(old, dtype=numpy.int64), numpy.array(new, dtype=numpy.int64)
            else:
                import pyarrow
                a, b = pyarrow.array(old), pyarrow.array(new)

        def check(result):
            # apply returns Python objects, inserted ones from b (numpy or Arrow) included
            assert result.apply(old) == new, "diffable's output does not replay to the new list"
        return (lambda: diffable.diff(a, b)), check
    if tool == "python-dict-lis":
        def check(output):
            import diffable
            assert tuple(output) == diffable_output(diffable.diff(old, new)), "python-dict-lis differs from diffable"
        return (lambda: python_dict_lis(old, new)), check
    if tool.startswith("difflib"):
        import difflib
        autojunk = tool.endswith("autojunk")
        return ((lambda: difflib.SequenceMatcher(None, old, new, autojunk=autojunk).get_opcodes()),
                lambda opcodes: _equal(apply_opcodes(old, new, opcodes), new))
    if tool == "rapidfuzz":
        from rapidfuzz.distance import Levenshtein
        return ((lambda: Levenshtein.editops(old, new)),
                lambda ops: _equal(apply_opcodes(old, new, ops.as_opcodes()), new))
    if tool == "deepdiff":
        from deepdiff import DeepDiff, Delta
        return (lambda: DeepDiff(old, new)), lambda found: _equal(old + Delta(found), new)
    if tool == "polars-antijoin":
        import polars
        a, b = polars.DataFrame({"id": old}), polars.DataFrame({"id": new})

        def check(output):
            deleted, inserted = output
            assert set(deleted["id"].to_list()) == set(old) - set(new)
            assert set(inserted["id"].to_list()) == set(new) - set(old)
        return (lambda: (a.join(b, on="id", how="anti"), b.join(a, on="id", how="anti"))), check
    raise ValueError(f"unknown tool {tool}")


def timed(run):
    """(output, CPU seconds, wall seconds) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    output = run()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return output, cpu, wall


def summary(values):
    return {"median": statistics.median(values), "min": min(values), "all": values}


def one(spec, runs, slow, slow_runs, timeout):
    """Runs one cell in this process (diffable and the tool alternated) and prints one JSON line.
    Each run of the tool is under an alarm of `timeout` seconds whose default action ends the
    process, because a C call (rapidfuzz, polars) cannot be interrupted from Python."""
    tool, scenario, kind, n = spec.split(",")
    old, new = make_lists(scenario, kind, int(float(n)))
    sides = {"diffable": prepare("diffable", old, new), tool: prepare(tool, old, new)}
    times = {side: {"cpu": [], "wall": []} for side in sides}
    outputs, core = {}, []
    rounds, peak_diffable = runs, None
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    done = 0
    while done < rounds:
        for side, (run, _) in sides.items():
            if side == tool:
                signal.setitimer(signal.ITIMER_REAL, timeout)
            output, cpu, wall = timed(run)
            signal.setitimer(signal.ITIMER_REAL, 0)
            times[side]["cpu"].append(cpu)
            times[side]["wall"].append(wall)
            outputs[side] = output
            if tool == "diffable-buffers" and side == tool:
                core.append(output.core_seconds)
            if peak_diffable is None:  # after diffable's first run, before the tool's
                peak_diffable = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        done += 1
        if done == 1 and times[tool]["wall"][0] > slow:
            rounds = min(runs, slow_runs)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    moves = len(outputs["diffable"].move_from)
    if tool == "diffable-buffers":
        assert diffable_output(outputs[tool]) == diffable_output(outputs["diffable"]), "buffers and lists differ"
    for side, (_, check) in sides.items():
        check(outputs.pop(side))
    if tool == "python-dict-lis":
        fewest = None  # its moves were compared with diffable's, one by one
    else:
        fewest = len(python_dict_lis(old, new)[2])
    record = {"tool": tool, "scenario": scenario, "kind": kind, "n": int(float(n)), "runs": rounds,
              "cpu": {side: summary(t["cpu"]) for side, t in times.items()},
              "wall": {side: summary(t["wall"]) for side, t in times.items()},
              "moves": moves, "fewest": fewest,
              "peak_mb_diffable": peak_diffable / 1024, "peak_mb": peak / 1024, "load": os.getloadavg()}
    if core:
        record["core_seconds"] = summary(core)
    print(json.dumps(record))


def spawn(spec, args):
    command = [sys.executable, os.path.abspath(__file__), "--one", spec, "--runs", str(args.runs),
               "--slow", str(args.slow), "--slow-runs", str(args.slow_runs), "--timeout", str(args.timeout)]
    limit = int(args.memory_gb * 2**30)

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    # The backstop: making 10^7 identifiers in Python and the diffable runs are not under the alarm.
    backstop = args.timeout * (args.runs + 1) * 2 + 600
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=backstop, preexec_fn=cap)
    except subprocess.TimeoutExpired:
        return {"status": "DNF"}
    if done.returncode == -signal.SIGALRM:
        return {"status": "DNF"}
    if done.returncode != 0:
        failed = "OOM" if "MemoryError" in done.stderr or "bad_alloc" in done.stderr else "FAILED"
        return {"status": failed, "error": done.stderr.strip().splitlines()[-1:]}
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
          f"on {os.cpu_count()} cores (load average {load()})")


def load():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def seconds(x):
    return f"{x:.3g}"


def ratio(record, clock):
    r = record[clock]
    return r[record["tool"]]["median"] / r["diffable"]["median"]


def cell(record):
    if "status" in record:
        return record["status"]
    return f"{ratio(record, 'cpu'):.3g}x diffable"


TABLE_HEADER = ("| tool | n | runs | diffable CPU s, median (min) | tool CPU s, median (min) | tool / diffable, CPU "
                "| wall | moves / fewest | peak RSS MB (diffable; both) | load |")


def table(records, sizes, kinds, scenarios, tools):
    lines = []
    for kind in kinds:
        for scenario in scenarios:
            rows = [(tool, n, records[(tool, scenario, kind, n)]) for tool in tools for n in sizes
                    if (tool, scenario, kind, n) in records]
            if not rows:
                continue
            lines.append(f"\n**{kind} identifiers, {scenario}**\n")
            lines.append(TABLE_HEADER)
            lines.append("|---|---:|---:|---:|---:|---:|---:|---|---|---|")
            for tool, n, r in rows:
                size = f"{n:.0e}".replace("e+0", "e")
                if "status" in r:
                    lines.append(f"| {tool} | {size} | | | {r['status']} | | | | | |")
                    continue
                cpu = r["cpu"]
                mine, theirs = cpu["diffable"], cpu[tool]
                other = f"{seconds(theirs['median'])} ({seconds(theirs['min'])})"
                if "core_seconds" in r:  # the core's clock is wall time: set against the call's wall time
                    other += (f"; core {seconds(r['core_seconds']['median'])} of "
                              f"{seconds(r['wall'][tool]['median'])} wall")
                fewest = r["fewest"] if r["fewest"] is not None else "equal"
                lines.append(
                    f"| {tool} | {size} | {r['runs']} | {seconds(mine['median'])} ({seconds(mine['min'])}) | {other} "
                    f"| **{ratio(r, 'cpu'):.3g}×** | {ratio(r, 'wall'):.3g}× | {r['moves']} / {fewest} "
                    f"| {r['peak_mb_diffable']:.0f}; {r['peak_mb']:.0f} | {' '.join(f'{x:.1f}' for x in r['load'])} |")
    return "\n".join(lines)


def plot(records, sizes, path, scenario="churn"):
    """The tool / diffable ratio (CPU medians) against size, one panel per identifier kind."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    kinds = sorted({k[2] for k in records}, key=KINDS.index)
    figure, axes = plt.subplots(1, len(kinds), figsize=(4.2 * len(kinds), 4), squeeze=False)
    for axis, kind in zip(axes[0], kinds):
        for tool in TOOLS:
            points = [(n, ratio(r, "cpu")) for n in sizes if "cpu" in (r := records.get((tool, scenario, kind, n), {}))]
            if points:
                axis.plot(*zip(*points), marker="o", label=tool)
        axis.set(xscale="log", yscale="log", xlabel="identifiers", ylabel="tool / diffable (CPU, medians)",
                 title=f"{kind}, {scenario}")
        axis.axhline(1, color="grey", linestyle=":", linewidth=1)
        axis.grid(True, which="major", alpha=0.3)
    axes[0][-1].legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="Benchmarks/python/bench.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1e3,1e4,1e5,1e6")
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    parser.add_argument("--tools", default=",".join(TOOLS))
    parser.add_argument("--timeout", type=float, default=60, help="seconds one run of the tool may take")
    parser.add_argument("--memory-gb", type=float, default=8)
    parser.add_argument("--runs", type=int, default=5, help="runs of each side per cell")
    parser.add_argument("--slow", type=float, default=10, help="a tool's first run over this many seconds ...")
    parser.add_argument("--slow-runs", type=int, default=3, help="... makes the cell this many runs per side")
    parser.add_argument("--threads", type=float, default=0, help="also time 4 threads vs 1 at this size")
    parser.add_argument("--only-threads", action="store_true", help="with --threads: time the threads alone")
    parser.add_argument("--self-check", action="store_true", help="compare python-dict-lis with diffable.diff and stop")
    parser.add_argument("--json", help="write every record here")
    parser.add_argument("--plot", help="write a PNG of the churn scenario's ratios here")
    parser.add_argument("--from-json", help="comma-separated --json files: print their table (and --plot), run nothing")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        return one(args.one, args.runs, args.slow, args.slow_runs, args.timeout)
    if args.self_check:
        print(f"python-dict-lis equals diffable.diff on {self_check()} random pairs")
        return None
    if args.only_threads:
        if not args.threads:
            parser.error("--only-threads needs --threads N")
        print_threads(int(args.threads), max(args.runs, 5))
        return None
    sizes = [int(float(s)) for s in args.sizes.split(",")]
    kinds, scenarios, tools = args.kinds.split(","), args.scenarios.split(","), args.tools.split(",")
    for name, chosen, known in (("kind", kinds, KINDS), ("scenario", scenarios, SCENARIOS), ("tool", tools, TOOLS)):
        unknown = [c for c in chosen if c not in known]
        if unknown:
            parser.error(f"unknown {name} {', '.join(unknown)} (known: {', '.join(known)})")
    records = {}
    if args.from_json:
        for path in args.from_json.split(","):
            with open(path) as saved:
                for record in json.load(saved):
                    records[(record["tool"], record["scenario"], record["kind"], record["n"])] = record
        print(table(records, sizes, kinds, scenarios, tools))
        if args.plot:
            plot(records, sizes, args.plot)
        return None
    print(f"{os.cpu_count()} cores, load average {load()} at the start; each cell alternates diffable and the "
          f"tool, {args.runs} runs each ({args.slow_runs} each when the tool's first run takes over {args.slow:g} s)",
          flush=True)
    for kind in kinds:
        for scenario in scenarios:
            for tool in tools:
                stopped = None
                for n in sizes:
                    key = (tool, scenario, kind, n)
                    if stopped:
                        records[key] = {"tool": tool, "scenario": scenario, "kind": kind, "n": n, "status": stopped}
                        continue
                    record = spawn(f"{tool},{scenario},{kind},{n}", args)
                    record.update(tool=tool, scenario=scenario, kind=kind, n=n)
                    records[key] = record
                    print(f"{kind:>12} {scenario:>8} {tool:>16} {n:>9}: {cell(record)} (load {load()})",
                          file=sys.stderr, flush=True)
                    if "status" in record:
                        stopped = record["status"]
                    if args.json:  # after every cell, so a long run stopped half-way keeps what it measured
                        with open(args.json, "w") as out:
                            json.dump(list(records.values()), out, indent=1)
    print(table(records, sizes, kinds, scenarios, tools))
    print(f"\nload average at the end: {load()}")
    if args.threads:
        print_threads(int(args.threads), max(args.runs, 5))
    if args.plot:
        plot(records, sizes, args.plot)


if __name__ == "__main__":
    main()
