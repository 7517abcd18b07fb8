#!/usr/bin/env python3
"""Many viewers on one instance of the demo: protocol clients that acknowledge every message.

For each point (viewers x distinct views) the script starts the demo server (`diffable-web
serve --port 0`, loopback only), connects the viewers in waves, lets them settle, then counts for
`--seconds` what every viewer receives: batches, whole-list reloads, sequence gaps. It samples the
server's CPU time and resident memory over the same window, and its own CPU time (the clients
share the machine with the server). Prints one Markdown table; every run is bounded in time.

A viewer is a WebSocket client of the wire format (Web/README.md): it reads each message's type
and sequence number from its first bytes (no JSON parse of the body), checks that the numbers
follow each other, and sends {"t":"ack","seq":N} at once. With --views K > 1, viewer i sends the
filter text FILTERS[i % K] first; with --views 1 every viewer sees the whole unfiltered board.

    python3 load_viewers.py --server Web/.build/release/diffable-web --viewers 10,100,300,1000 --views 1,10
"""
import argparse
import asyncio
import multiprocessing
import os
import re
import resource
import statistics
import subprocess
import sys
import time
import urllib.parse

# Ten filter texts, each matching some of the demo's player names (syllables of its name maker).
FILTERS = ["ka", "lo", "mi", "ra", "te", "su", "vo", "ne", "zi", "po"]
HEADER = re.compile(rb'^\{"t":"(batch|reload|error)"(?:,"seq":(\d+))?')


def clock_ticks():
    return os.sysconf(os.sysconf_names["SC_CLK_TCK"])


def process_cpu_seconds(pid):
    """utime + stime of a process, in seconds (from /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / clock_ticks()


def process_rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


async def viewer(url, filter_text, window, stats, ready):
    """One protocol client; fills `stats` with what arrived inside `window` (start, end)."""
    import websockets

    record = {"batches": 0, "reloads": 0, "gaps": 0, "errors": 0, "bytes": 0, "connected": False}
    stats.append(record)
    try:
        async with websockets.connect(url, max_size=None, compression=None, open_timeout=60,
                                      ping_interval=None, close_timeout=1) as socket:
            record["connected"] = True
            if filter_text:
                await socket.send('{"t":"filter","text":"%s"}' % filter_text)
            ready.release()
            last = None
            while True:
                data = await socket.recv(decode=False)
                now = time.monotonic()
                match = HEADER.match(data[:48])
                if not match:
                    record["errors"] += 1
                    continue
                kind, seq = match.group(1), match.group(2)
                if kind == b"error":
                    record["errors"] += 1
                    continue
                seq = int(seq)
                inside = window[0] <= now < window[1]
                if kind == b"batch" and last is not None and seq != last + 1 and inside:
                    record["gaps"] += 1
                last = seq
                await socket.send('{"t":"ack","seq":%d}' % seq)
                if inside:
                    record["bytes"] += len(data)
                    record["batches" if kind == b"batch" else "reloads"] += 1
                if now >= window[1]:
                    return
    except (OSError, asyncio.TimeoutError, Exception) as error:  # noqa: BLE001 - reported, not hidden
        record["failure"] = f"{type(error).__name__}: {error}"
        ready.release()


async def worker_main(url, filters, start_at, settle, seconds, wave):
    stats = []
    ready = asyncio.Semaphore(0)
    # The window is fixed once every viewer of this worker is connected (or the start deadline passed).
    window = [float("inf"), float("inf")]
    tasks = []
    for index, text in enumerate(filters):
        tasks.append(asyncio.create_task(viewer(url, text, window, stats, ready)))
        if (index + 1) % wave == 0:
            for _ in range(wave):
                await ready.acquire()
    remaining = len(filters) - (len(filters) // wave) * wave
    for _ in range(remaining):
        await ready.acquire()
    begin = max(time.monotonic(), start_at) + settle
    window[0], window[1] = begin, begin + seconds
    try:
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=settle + seconds + 30)
    except asyncio.TimeoutError:
        for task in tasks:
            task.cancel()
    return stats, window


def worker(args):
    url, filters, start_at, settle, seconds, wave, queue = args
    before = resource.getrusage(resource.RUSAGE_SELF)
    stats, window = asyncio.run(worker_main(url, filters, start_at, settle, seconds, wave))
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    queue.put({"stats": stats, "window": window, "cpu": cpu})


def start_server(binary, rows, extra):
    process = subprocess.Popen([binary, "serve", "--port", "0", "--rows", str(rows)] + extra,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = process.stdout.readline()
    found = re.search(r"http://(127\.0\.0\.1):(\d+)", line)
    if not found:
        process.kill()
        raise SystemExit(f"the server did not print its URL: {line!r}")
    return process, f"ws://127.0.0.1:{found.group(2)}/board/ws"


def measure(binary, rows, viewers, views, settle, seconds, processes, extra):
    """One point: returns a dict of figures."""
    server, url = start_server(binary, rows, extra)
    try:
        texts = [""] * viewers if views == 1 else [FILTERS[i % views] for i in range(viewers)]
        processes = max(1, min(processes, viewers))
        queue = multiprocessing.Queue()
        start_at = time.monotonic() + 0.5
        jobs = []
        for p in range(processes):
            job = multiprocessing.Process(target=worker, args=((url, texts[p::processes], start_at, settle, seconds, 50, queue),))
            job.start()
            jobs.append(job)
        load_before = loadavg()
        results, rss, cpu_marks = [], [], []
        deadline = time.monotonic() + 180 + settle + seconds
        while len(results) < processes and time.monotonic() < deadline:
            now = time.monotonic()
            cpu_marks.append((now, process_cpu_seconds(server.pid)))
            rss.append(process_rss_mb(server.pid))
            try:
                results.append(queue.get(timeout=0.2))
            except Exception:  # noqa: BLE001 - queue.Empty
                pass
        for job in jobs:
            job.join(timeout=5)
            if job.is_alive():
                job.kill()
        if len(results) < processes:
            raise SystemExit(f"{viewers} viewers: {len(results)} of {processes} load processes reported in time")
        begin = max(r["window"][0] for r in results)
        end = min(r["window"][1] for r in results)
        inside = [(t, c) for t, c in cpu_marks if begin <= t <= end]
        server_cpu = (inside[-1][1] - inside[0][1]) / (inside[-1][0] - inside[0][0]) if len(inside) >= 2 else float("nan")
        records = [s for r in results for s in r["stats"]]
        failures = [s["failure"] for s in records if "failure" in s]
        rates = sorted((s["batches"] + s["reloads"]) / seconds for s in records if s["connected"])
        return {
            "viewers": viewers, "views": views, "connected": sum(1 for s in records if s["connected"]),
            "min": rates[0] if rates else 0.0, "median": statistics.median(rates) if rates else 0.0,
            "gaps": sum(s["gaps"] for s in records), "reloads": sum(s["reloads"] for s in records),
            "errors": sum(s["errors"] for s in records), "failures": failures[:3],
            "mb_per_s": sum(s["bytes"] for s in records) / seconds / 1e6,
            "server_cpu": server_cpu, "rss": max(rss) if rss else 0.0,
            "client_cpu": sum(r["cpu"] for r in results) / (settle + seconds + 1),
            "load": f"{load_before} → {loadavg()}",
        }
    finally:
        server.terminate()
        try:
            server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            server.kill()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", required=True, help="the diffable-web binary (release build)")
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--ticks-per-second", type=int, default=5)
    parser.add_argument("--viewers", default="10,100,300,1000", help="comma-separated viewer counts")
    parser.add_argument("--views", default="1,10", help="comma-separated counts of distinct filter texts (1: all unfiltered)")
    parser.add_argument("--seconds", type=float, default=10.0, help="the measured window per point")
    parser.add_argument("--settle", type=float, default=3.0, help="seconds after the last viewer connected, not measured")
    parser.add_argument("--processes", type=int, default=2, help="client processes (the clients' CPU is reported)")
    args = parser.parse_args()
    ticks = args.ticks_per_second
    extra = ["--ticks-per-second", str(ticks)]
    print(f"<!-- load_viewers.py: {args.rows} rows, {ticks} updates/s, {args.seconds:g} s measured after "
          f"{args.settle:g} s settling, {os.cpu_count()} cores, {time.strftime('%Y-%m-%d')} -->")
    print("| viewers | views | connected | updates/s per viewer: min | median | gaps | reloads in window | "
          "MB/s sent | server CPU (cores) | server CPU ms per update | server RSS MB | clients' CPU (cores) | load average before → after |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for views in [int(v) for v in args.views.split(",")]:
        for viewers in [int(v) for v in args.viewers.split(",")]:
            r = measure(args.server, args.rows, viewers, views, args.settle, args.seconds, args.processes, extra)
            print(f"| {viewers} | {views} | {r['connected']} | {r['min']:.2f} | {r['median']:.2f} | {r['gaps']} | {r['reloads']} | "
                  f"{r['mb_per_s']:.1f} | {r['server_cpu']:.2f} | {1000 * r['server_cpu'] / ticks:.1f} | {r['rss']:.0f} | "
                  f"{r['client_cpu']:.2f} | {r['load']} |", flush=True)
            if r["failures"] or r["errors"]:
                print(f"<!-- {viewers}x{views}: {r['errors']} error messages; failures: {r['failures']} -->", flush=True)


if __name__ == "__main__":
    main()
