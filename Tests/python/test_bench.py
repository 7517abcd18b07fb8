"""The package's benchmark, Benchmarks/python/bench.py: it stays out of the installed package, its
pure-Python baseline returns exactly what diffable.diff returns, and a cell alternates both sides
the same number of times in one process."""
import importlib.util
import json
import pathlib
import subprocess
import sys

import diffable

BENCH = pathlib.Path(__file__).resolve().parents[2] / "Benchmarks" / "python" / "bench.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(*args, timeout=120):
    return subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True, timeout=timeout)


def test_the_installed_package_does_not_carry_the_benchmark():
    assert importlib.util.find_spec("diffable.bench") is None
    assert not (pathlib.Path(diffable.__file__).parent / "bench.py").exists()


def test_python_dict_lis_returns_what_diffable_returns():
    bench = load_bench()
    assert bench.self_check(cases=600) == 600
    old, new = ["a", "b", "c", "d"], ["b", "c", "d", "a", "e"]
    assert bench.python_dict_lis(old, new) == ([], [4], [(0, 3)], [3, 0, 1, 2], [1, 2, 3, 0, -1])
    assert tuple(bench.python_dict_lis(old, new)) == bench.diffable_output(diffable.diff(old, new))


def test_identifier_kinds_are_in_their_script():
    bench = load_bench()
    assert bench.identifier("str", 12) == "item-000000012"
    assert all(ord(c) >= 0x400 for c in bench.identifier("str-cyrillic", 12).replace("-", ""))
    assert all(ord(c) >= 0x3000 for c in bench.identifier("str-cjk", 12).replace("-", ""))
    mixed = [bench.identifier("str-mixed", x) for x in range(3)]
    assert [s.isascii() for s in mixed] == [True, False, False]


def test_a_cell_alternates_both_sides_the_same_number_of_times(tmp_path):
    saved = tmp_path / "cells.json"
    done = run("--sizes", "1e3", "--scenarios", "churn", "--kinds", "str-cjk", "--tools", "python-dict-lis,difflib",
               "--runs", "3", "--json", str(saved))
    assert done.returncode == 0, done.stderr
    assert "| python-dict-lis | 1e3 | 3 |" in done.stdout and "| difflib | 1e3 | 3 |" in done.stdout
    for record in json.loads(saved.read_text()):
        for clock in ("cpu", "wall"):
            assert [len(side["all"]) for side in record[clock].values()] == [3, 3]
        assert record["moves"] == 99 and len(record["load"]) == 3
    refused = run("--tools", "diffable")
    assert refused.returncode == 2 and "unknown tool diffable" in refused.stderr


def test_bench_times_threads_alone_in_alternated_pairs():
    """`--threads N --only-threads` times only that, and reports the median speed-up with its
    range; without --threads it is refused by name."""
    done = run("--threads", "2e4", "--only-threads")
    assert done.returncode == 0, done.stderr
    assert "4 diffs of 20,000 shuffled int64 (numpy), 5 alternated pairs after a warm-up" in done.stdout
    assert "x median," in done.stdout and "x range" in done.stdout
    assert "difflib" not in done.stdout  # the comparison table did not run
    refused = run("--only-threads", timeout=60)
    assert refused.returncode == 2 and "--only-threads needs --threads N" in refused.stderr
