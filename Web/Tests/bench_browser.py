"""`make web-bench`: the browser's time per update (message received to DOM updated and laid
out) and the bytes sent, for DiffableWeb's steps against (a) replacing the list's innerHTML
with the whole rendered list and (b) sending the whole list as JSON and rebuilding it, all in
one chromium session; with the server's diff + encode time per apply. Medians of --steps
updates. Not a test: it asserts nothing and prints a Markdown table."""

import argparse
import json
import statistics
import sys
import time

from playwright.sync_api import sync_playwright

from conftest import CHROMIUM, Server


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000", help="row counts, comma-separated")
    parser.add_argument("--steps", type=int, default=7, help="updates per size and change (median reported)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]

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
                    server_ms, diff_bytes, html_bytes, json_bytes = [], [], [], []
                    for step in range(args.steps):
                        answer = json.loads(server.post(f"/bench/step?kind={kind}", {}))
                        server_ms.append(answer["serverMs"])
                        diff_bytes.append(answer["diffBytes"])
                        html_bytes.append(answer["htmlBytes"])
                        json_bytes.append(answer["jsonBytes"])
                        page.wait_for_function(
                            f"window.results.html.length > {step} && window.results.json.length > {step}"
                            f" && window.results.diff.length > {step}", timeout=120000)
                    results = page.evaluate("window.results")
                    med = lambda values: statistics.median(values)  # noqa: E731
                    row = {
                        "rows": n, "change": "1% churn" if kind == "churn" else "full re-sort",
                        "diff_ms": med([r["ms"] for r in results["diff"]]),
                        "html_ms": med([r["ms"] for r in results["html"]]),
                        "json_ms": med([r["ms"] for r in results["json"]]),
                        "diff_bytes": med([r["bytes"] for r in results["diff"]]),
                        "html_bytes": med(html_bytes), "json_bytes": med(json_bytes),
                        "server_ms": med(server_ms),
                    }
                    rows.append(row)
                    print(json.dumps(row), file=sys.stderr, flush=True)
            browser.close()
    finally:
        server.stop()

    print(f"<!-- make web-bench: medians of {args.steps} updates, chromium headless, {time.strftime('%Y-%m-%d')} -->")
    print("| rows | change | steps: browser ms | innerHTML: browser ms | JSON rebuild: browser ms "
          "| steps: bytes | innerHTML: bytes | JSON: bytes | innerHTML ÷ steps (time) | JSON ÷ steps (bytes) "
          "| server diff + encode ms |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['rows']:,} | {r['change']} | {r['diff_ms']:.1f} | {r['html_ms']:.1f} | {r['json_ms']:.1f} "
              f"| {r['diff_bytes']:,.0f} | {r['html_bytes']:,.0f} | {r['json_bytes']:,.0f} "
              f"| {r['html_ms'] / max(r['diff_ms'], 0.01):.1f}× | {r['json_bytes'] / max(r['diff_bytes'], 1):.0f}× "
              f"| {r['server_ms']:.1f} |")


if __name__ == "__main__":
    main()
