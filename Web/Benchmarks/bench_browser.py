"""`make web-bench`: the browser's time per update (message received to DOM updated and laid
out) and the bytes sent, for DiffableWeb's steps against (a) replacing the list's innerHTML
with the whole rendered list, (b) sending the whole list as JSON and rebuilding it, and (c)
sending the same JSON and reconciling it by key on the page (nodes kept, only rows off a longest
increasing subsequence moved), all in one chromium session; with the server's diff + encode
time per apply. Bytes are UTF-8, counted on the server for every way. Medians of --steps
updates; the machine's load average before and after is printed with the table. Not a test:
it prints a Markdown table (it only stops if the keyed client's list came out wrong)."""

import argparse
import json
import os
import statistics
import sys
import time

from playwright.sync_api import sync_playwright

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests"))
from conftest import CHROMIUM, Server  # noqa: E402


def loadavg():
    with open("/proc/loadavg") as f:
        return [float(x) for x in f.read().split()[:3]]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000", help="row counts, comma-separated")
    parser.add_argument("--steps", type=int, default=7, help="updates per size and change (median reported)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]

    load_before = loadavg()
    server = Server("bench-server")
    rows = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1000, "height": 700})
            page.goto(server.url)
            page.wait_for_function("window.list && window.rawReady")
            page.evaluate("window.rawReady")
            for n in sizes:
                for kind in ("churn", "resort"):
                    server.post(f"/bench/setup?n={n}", {})
                    page.evaluate("() => { for (const k in window.results) window.results[k] = []; }")
                    answers = []
                    for step in range(args.steps):
                        answers.append(json.loads(server.post(f"/bench/step?kind={kind}", {})))
                        page.wait_for_function(
                            " && ".join(f"window.results.{way}.length > {step}" for way in ("diff", "html", "json", "keyed")),
                            timeout=120000)
                    results = page.evaluate("window.results")
                    if page.evaluate("window.keyedWrong"):
                        raise SystemExit("the keyed client's list differs from its JSON: its times would mean nothing")
                    med = statistics.median
                    row = {"rows": n, "change": "1% churn" if kind == "churn" else "full re-sort"}
                    for way in ("diff", "html", "json", "keyed"):
                        row[f"{way}_ms"] = med([r["ms"] for r in results[way]])
                    for way in ("diff", "html", "json", "keyed"):
                        row[f"{way}_bytes"] = med([a[f"{way}Bytes"] for a in answers])
                    row["server_ms"] = med([a["serverMs"] for a in answers])
                    rows.append(row)
                    print(json.dumps(row), file=sys.stderr, flush=True)
            browser.close()
    finally:
        server.stop()
    load_after = loadavg()

    cores = os.cpu_count() or 1
    # "Quiet" only when nothing else ran to speak of, before and after (1-minute average).
    quiet = max(load_before[0], load_after[0]) < 0.25 * cores
    load = (f"load average (1/5/15 min) {' '.join(f'{x:.2f}' for x in load_before)} before, "
            f"{' '.join(f'{x:.2f}' for x in load_after)} after, {cores} cores: "
            + ("quiet machine" if quiet else "machine busy with other work"))
    print(f"<!-- make web-bench: medians of {args.steps} updates, chromium headless, {time.strftime('%Y-%m-%d')}; {load} -->")
    print(f"Machine: {load}.")
    print()
    print("| rows | change | steps: browser ms | keyed: browser ms | innerHTML: browser ms | JSON rebuild: browser ms "
          "| steps: bytes | keyed/JSON: bytes | innerHTML: bytes | keyed ÷ steps (time) | innerHTML ÷ steps (time) "
          "| keyed ÷ steps (bytes) | server diff + encode ms |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        assert r["keyed_bytes"] == r["json_bytes"]  # the same list, reconciled instead of rebuilt
        print(f"| {r['rows']:,} | {r['change']} | {r['diff_ms']:.1f} | {r['keyed_ms']:.1f} | {r['html_ms']:.1f} "
              f"| {r['json_ms']:.1f} | {r['diff_bytes']:,.0f} | {r['keyed_bytes']:,.0f} | {r['html_bytes']:,.0f} "
              f"| {r['keyed_ms'] / max(r['diff_ms'], 0.01):.1f}× | {r['html_ms'] / max(r['diff_ms'], 0.01):.1f}× "
              f"| {r['keyed_bytes'] / max(r['diff_bytes'], 1):.0f}× | {r['server_ms']:.1f} |")


if __name__ == "__main__":
    main()
