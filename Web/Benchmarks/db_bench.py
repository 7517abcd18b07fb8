#!/usr/bin/env python3
"""Commit-to-screen latency, bytes per update and server CPU per update of the board on PostgreSQL
(diffable-web-db), with 1 and 3 instances and 100 and 300 viewers. Not a test: it prints figures.

Run inside a throwaway cluster (make db-bench does: Web/Tests/PostgresTest/run_cluster.sh):

    db_bench.py --program Web/.build/release/diffable-web-db [--clients 100,300] [--instances 1,3]

Every viewer signs in as the same team, whose 10^4 rows (--rows) the writer re-ranks: each commit
changes the score of 1% of them (--change) and stamps them with the commit's number (the `tag`
each row carries in its markup); --rate commits a second, the time each commit returned recorded
by the writer. Viewers are protocol clients in --workers processes that acknowledge every
message as the browser client does; --sample of them (spread over the instances, in a process of
their own, as each browser has its own machine) record when each
commit number first arrived in a message, so a commit's latency is the first arrival of its
number or a later one (a coalesced message carries the newer state) minus the commit's time.
The clock is CLOCK_MONOTONIC, shared by every process on the machine. Bytes per update are what
a viewer received per batch against the size of the whole query result as JSON (what re-sending
it would cost); server CPU is the instances' user+system time over the measured window.

--modes requery,row-level runs every point in each mode, one after the other (same session, same
table): row-level (the default, as diffable-web-db serves) re-reads only the notified rows;
requery (serve --requery) runs each team's whole query per notification. The row-level trigger is
installed either way (it serves both).
"""
import argparse
import asyncio
import json
import multiprocessing
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "LiveDatabase"))
from livedb import (COOKIE, HEADER, TAG, Instance, Writer, free_port, mint_token, percentile,  # noqa: E402
                    process_cpu_seconds)


def database_cpu_seconds():
    """CPU time of every PostgreSQL server process on the machine (the throwaway cluster's)."""
    total = 0.0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/comm") as f:
                if f.read().strip() != "postgres":
                    continue
        except OSError:
            continue
        total += process_cpu_seconds(pid)
    return total


async def viewer(url, token, sampled, window, record, connected):
    import websockets
    async with websockets.connect(url, additional_headers={"Cookie": f"{COOKIE}={token}"}, max_size=None,
                                  compression=None, open_timeout=120, ping_interval=None, close_timeout=1) as socket_:
        connected.append(1)
        async for data in socket_:
            now = time.monotonic()
            raw = data.encode() if isinstance(data, str) else data
            match = HEADER.match(raw[:48])
            if not match or match.group(1) == b"error":
                record["errors"] += 1
                continue
            seq = int(match.group(2))
            if match.group(1) == b"reload" and not record["reload_bytes"]:
                record["reload_bytes"] = len(raw)
            if sampled:
                for tag in TAG.findall(raw):
                    record["tags"].setdefault(int(tag), now)
            if window[0] <= now <= window[1]:
                if match.group(1) == b"batch":
                    record["batches"] += 1
                    record["batch_bytes"] += len(raw)
                    if sampled and record["example"] is None:
                        record["example"] = raw.decode()
                else:
                    record["reloads"] += 1
            await socket_.send('{"t":"ack","seq":%d}' % seq)


def worker(assignments, window_queue, result_queue, ready_queue):
    """Runs its viewers until told the window; returns each viewer's record."""
    async def main():
        window = [float("inf"), float("-inf")]
        records, connected, tasks = [], [], []
        for url, token, sampled in assignments:
            record = {"batches": 0, "batch_bytes": 0, "reload_bytes": 0, "reloads": 0, "errors": 0, "tags": {}, "sampled": sampled,
                      "example": None}
            records.append(record)
            tasks.append(asyncio.create_task(viewer(url, token, sampled, window, record, connected)))
            await asyncio.sleep(0.005)
        while len(connected) < len(assignments):
            await asyncio.sleep(0.05)
        ready_queue.put(len(connected))
        start, end = await asyncio.to_thread(window_queue.get)
        window[0], window[1] = start, end
        await asyncio.sleep(max(0.0, end - time.monotonic()) + 2.0)  # late arrivals of the last commits
        for task in tasks:
            task.cancel()
        result_queue.put(records)
    asyncio.run(main())


async def point(args, instances_count, clients, secret, log_dir, mode):
    writer = Writer(rows=args.rows, stable=0, rate=args.rate, updates_per_commit=int(args.rows * args.change), moves=False,
                    teams=["red"])
    await writer.seed()
    rows = await writer.expected("red")
    resend_bytes = len(json.dumps([{"id": r[0], "name": r[1], "team": r[2], "score": r[3], "tag": r[4]} for r in rows]))
    ports = [free_port() for _ in range(instances_count)]
    extra = ["--requery"] if mode == "requery" else []
    instances = [Instance(args.program, port, [p for p in ports if p != port], secret, log_dir, f"bench{i}-{clients}-{mode}").start(extra)
                 for i, port in enumerate(ports)]
    token = mint_token(secret, "red", time.time() + 3600)
    sample_every = max(1, clients // args.sample)
    assignments = [(instances[i % instances_count].ws_url, token, i % sample_every == 0) for i in range(clients)]
    workers = []
    window_queue, result_queue, ready_queue = multiprocessing.Queue(), multiprocessing.Queue(), multiprocessing.Queue()
    # The sampled viewers in a process of their own (as a browser has its own machine), so their
    # arrival times are not queued behind the other viewers' messages; the rest share --workers.
    sampled = [a for a in assignments if a[2]]
    loaders = [a for a in assignments if not a[2]]
    groups = [sampled] + [loaders[w::args.workers] for w in range(args.workers)]
    for group in groups:
        if not group:
            continue
        process = multiprocessing.Process(target=worker, args=(group, window_queue, result_queue, ready_queue))
        process.start()
        workers.append(process)
    for _ in workers:
        await asyncio.to_thread(ready_queue.get, True, 300)
    writer.start()
    await asyncio.sleep(args.warmup)
    start = time.monotonic()
    end = start + args.seconds
    for _ in workers:
        window_queue.put((start, end))
    cpu_before = sum(i.cpu_seconds() for i in instances)
    database_before = database_cpu_seconds()
    clients_before = sum(process_cpu_seconds(p.pid) for p in workers)
    first_commit = writer.commit + 1
    await asyncio.sleep(args.seconds)
    cpu = sum(i.cpu_seconds() for i in instances) - cpu_before
    database_cpu = database_cpu_seconds() - database_before
    clients_cpu = sum(process_cpu_seconds(p.pid) for p in workers) - clients_before
    last_commit = writer.commit
    await writer.stop()
    records = []
    for _ in workers:
        records += await asyncio.to_thread(result_queue.get, True, 120)
    for process in workers:
        process.join(10)
    for instance in instances:
        instance.stop()
    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    if args.dump:
        example = next((r["example"] for r in records if r["example"]), None)
        with open(args.dump, "w") as f:
            f.write(example or "")

    commits = range(first_commit, last_commit + 1)
    latencies = []
    for record in records:
        if not record["sampled"]:
            continue
        arrivals = record["tags"]
        # The first arrival of commit k or a later one: a suffix minimum over the commit numbers.
        later = float("inf")
        first_at = {}
        for k in range(max(arrivals, default=0), first_commit - 1, -1):
            later = min(later, arrivals.get(k, float("inf")))
            first_at[k] = later
        for k in commits:
            if k in writer.commit_times and first_at.get(k, float("inf")) < float("inf"):
                latencies.append((first_at[k] - writer.commit_times[k]) * 1000)
    sampled = sum(1 for r in records if r["sampled"])
    expected_latencies = sampled * len(commits)
    batches = sum(r["batches"] for r in records)
    batch_bytes = sum(r["batch_bytes"] for r in records)
    per_client_batches = batches / max(1, len(records))
    n_commits = max(1, len(commits))
    return {
        "mode": mode, "rows": args.rows, "instances": instances_count, "clients": clients, "commits": len(commits),
        "commit_rate": len(commits) / args.seconds,
        "p50_ms": percentile(latencies, 50), "p99_ms": percentile(latencies, 99), "max_ms": max(latencies, default=float("nan")),
        "latency_samples": len(latencies), "latency_expected": expected_latencies,
        "updates_per_client_per_s": per_client_batches / args.seconds,
        "bytes_per_batch": batch_bytes / max(1, batches),
        "resend_bytes": resend_bytes,
        "reload_bytes": max(r["reload_bytes"] for r in records),
        "server_cpu_ms_per_commit": cpu * 1000 / n_commits,
        "server_cpu_percent": cpu / args.seconds * 100,
        "database_cpu_percent": database_cpu / args.seconds * 100,
        "clients_cpu_percent": clients_cpu / args.seconds * 100,
        "bytes_per_commit": batch_bytes / max(1, len(records)) / n_commits,
        "reloads": sum(r["reloads"] for r in records), "errors": sum(r["errors"] for r in records),
        "load": load,
    }


async def main(args):
    secret = os.urandom(24).hex().encode()
    import subprocess
    modes = args.modes.split(",")
    if any(mode not in ("requery", "row-level") for mode in modes):
        raise SystemExit(f"db_bench.py: --modes takes requery and/or row-level, not {args.modes}")
    subprocess.run([args.program, "setup"], check=True)
    log_dir = tempfile.mkdtemp(prefix="diffable-db-bench.")
    results = []
    for instances_count in [int(x) for x in args.instances.split(",")]:
        for clients in [int(x) for x in args.clients.split(",")]:
            for mode in modes:
                result = await point(args, instances_count, clients, secret, log_dir, mode)
                print(json.dumps(result), flush=True)
                results.append(result)
    print(f"\n{args.rows} rows, {args.change:.0%} changed per commit, writer at {args.rate:g} commits/s, "
          f"{args.seconds:g} s measured per point, {os.cpu_count()} cores\n")
    print("| mode | instances | clients | commits/s | p50 ms | p99 ms | max ms | messages/s per client | bytes per message | "
          "bytes per commit | query result as JSON, bytes | JSON ÷ per commit | server CPU ms per commit | "
          "server CPU % | PostgreSQL CPU % | clients' CPU % | load |")
    print("| --- " * 17 + "|")
    for r in results:
        print(f"| {r['mode']} | {r['instances']} | {r['clients']} | {r['commit_rate']:.1f} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | "
              f"{r['max_ms']:.1f} | {r['updates_per_client_per_s']:.1f} | {r['bytes_per_batch']:.0f} | {r['bytes_per_commit']:.0f} | "
              f"{r['resend_bytes']} | {r['resend_bytes'] / max(1, r['bytes_per_commit']):.0f}x | "
              f"{r['server_cpu_ms_per_commit']:.1f} | {r['server_cpu_percent']:.0f} | {r['database_cpu_percent']:.0f} | "
              f"{r['clients_cpu_percent']:.0f} | {r['load']} |")
    print(f"\n(the whole list as a reload message: {results[0]['reload_bytes']} bytes)")
    print("\n(latency samples per point: " + ", ".join(f"{r['latency_samples']}/{r['latency_expected']}" for r in results)
          + "; reloads in the window: " + ", ".join(str(r["reloads"]) for r in results) + ")")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--program", required=True)
    parser.add_argument("--modes", default="row-level", help="requery, row-level or both (comma-separated), each point in each")
    parser.add_argument("--instances", default="1,3")
    parser.add_argument("--clients", default="100,300")
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--change", type=float, default=0.01)
    parser.add_argument("--rate", type=float, default=20)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--sample", type=int, default=20, help="viewers that record arrivals (the others only acknowledge)")
    parser.add_argument("--dump", help="write one batch message a viewer received to this file (the last point's)")
    parser.add_argument("--workers", type=int, default=2, help="processes for the viewers that are not sampled")
    asyncio.run(main(parser.parse_args()))
