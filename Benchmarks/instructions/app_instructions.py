#!/usr/bin/env python3
"""Instructions per change of the app suite's rows, counted by callgrind.

    app_instructions.py CLI [--rows ROWS] [--sizes 1e2,1e3,1e4] [--out-dir DIR] [--jobs 2]

CLI is a release `diffable` (debug info stripped: valgrind rejects the DWARF that Swift
emits). Each row runs `CLI bench --suite app --app-ids KIND --sizes SIZE --app-profile
PHASE:N` under callgrind twice, with two run lengths N1 < N2; (count(N2) - count(N1)) /
(N2 - N1) is one change, the set-up (process start, building the models) subtracted. The
counts do not depend on the machine's load, which CPU time does on a shared machine.

glibc copies and clears large blocks with `rep movsb` / `rep stosb`, which valgrind counts as
one instruction per byte: a 100 KB copy reads as 100,000 instructions against about 9,400 for
the vector loop that runs below the threshold. So every run sets GLIBC_TUNABLES to keep
`memcpy` and `memset` on their vector loops, and a row that copies more bytes than another
is not charged ten times over for them.

ROWS is a comma-separated list of KIND:PHASE (default: build-diff for Int, String, UUID,
Item, KeyedStruct; apply and apply-ids for KeyedItem). Prints one line per row and size, and
each build-diff row over the Int row of its size.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
from pathlib import Path

RUN_LENGTHS = {"1e2": (100, 300), "1e3": (10, 30), "1e4": (3, 9), "1e5": (1, 3)}
DEFAULT_ROWS = ("Int:build-diff,String:build-diff,UUID:build-diff,Item:build-diff,KeyedStruct:build-diff,"
                "KeyedItem:apply,KeyedItem:apply-ids")
# Above any block these runs copy or clear: glibc's vector loops throughout.
TUNABLES = "glibc.cpu.x86_rep_movsb_threshold=4294967295:glibc.cpu.x86_rep_stosb_threshold=4294967295"


def total_instructions(cli: str, kind: str, size: str, phase: str, changes: int, out_dir: Path) -> int:
    """Callgrind's instruction total for one run of the CLI's profile phase."""
    out = out_dir / f"{kind}-{size}-{phase}-{changes}.callgrind"
    env = dict(os.environ, GLIBC_TUNABLES=TUNABLES)
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", cli, "bench", "--suite", "app",
               "--app-ids", kind, "--sizes", size, "--app-profile", f"{phase}:{changes}"]
    run = subprocess.run(command, env=env, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"app_instructions: {' '.join(command)} failed ({run.returncode}):\n{run.stderr[-2000:]}")
    summary = re.search(r"^summary:\s+(\d+)", out.read_text(errors="replace"), re.MULTILINE)
    if summary is None:
        sys.exit(f"app_instructions: no summary line in {out}")
    return int(summary.group(1))


def per_change(cli: str, kind: str, size: str, phase: str, out_dir: Path) -> float:
    short, long = RUN_LENGTHS[size]
    return (total_instructions(cli, kind, size, phase, long, out_dir)
            - total_instructions(cli, kind, size, phase, short, out_dir)) / (long - short)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cli")
    parser.add_argument("--rows", default=DEFAULT_ROWS)
    parser.add_argument("--sizes", default="1e2,1e3,1e4")
    parser.add_argument("--out-dir", default="build/app-instructions")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    rows = [tuple(row.split(":", 1)) for row in args.rows.split(",")]
    sizes = args.sizes.split(",")
    if unknown := [size for size in sizes if size not in RUN_LENGTHS]:
        parser.error(f"unknown size {unknown[0]} (known: {', '.join(RUN_LENGTHS)})")
    out_dir = Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {(kind, phase, size): pool.submit(per_change, args.cli, kind, size, phase, out_dir)
                   for kind, phase in rows for size in sizes}
        counts = {key: future.result() for key, future in futures.items()}
    for kind, phase in rows:
        cells = []
        for size in sizes:
            count = counts[(kind, phase, size)]
            base = counts.get(("Int", "build-diff", size))
            ratio = f" ({count / base:.2f}× Int)" if phase == "build-diff" and base and kind != "Int" else ""
            cells.append(f"{size} {count:,.0f}{ratio}")
        print(f"{kind} {phase}: " + " | ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
