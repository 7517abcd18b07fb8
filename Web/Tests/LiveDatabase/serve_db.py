#!/usr/bin/env python3
"""make serve-db: the board on a throwaway PostgreSQL (run_cluster.sh starts it), two
diffable-web-db instances and a writer; prints both pages' URLs and runs until Ctrl-C.

    serve_db.py --program Web/.build/debug/diffable-web-db [--ports 8081,8082] [--rows 2000] [--rate 5]
"""
import argparse
import asyncio
import os
import signal
import socket
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from livedb import TEAMS, Instance, Writer, free_port  # noqa: E402


def usable(port):
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


async def main(args):
    subprocess.run([args.program, "setup"], check=True)
    writer = Writer(rows=args.rows, stable=0, rate=args.rate, updates_per_commit=5)
    await writer.seed()
    ports = [int(p) if usable(int(p)) else free_port() for p in args.ports.split(",")]
    secret = os.urandom(24).hex().encode()
    log_dir = tempfile.mkdtemp(prefix="diffable-serve-db.")
    instances = []
    try:
        for i, port in enumerate(ports):
            instances.append(Instance(args.program, port, [p for p in ports if p != port], secret, log_dir, f"instance{i + 1}"))
        for instance in instances:
            instance.start(extra=["--demo-login"])
        writer.start()
        print(f"\nThe board on PostgreSQL ({args.rows} players in {len(TEAMS)} teams; the writer re-ranks, adds, removes and "
              f"moves players {args.rate:g} times a second). Open both pages and choose the same team:\n")
        for instance in instances:
            print(f"  {instance.name}: {instance.page_url}")
        print(f"\nThe same list in both, in step. Kill one instance (its pid: "
              f"{', '.join(str(i.process.pid) for i in instances)}) and its page moves to the other.\n"
              f"Logs in {log_dir}. Ctrl-C stops the instances, the writer and the database.", flush=True)
        while True:
            await asyncio.sleep(3600)
    finally:
        await writer.stop()
        for instance in instances:
            instance.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--program", required=True)
    parser.add_argument("--ports", default="8081,8082")
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--rate", type=float, default=5)
    # `kill PID` stops it as Ctrl-C does.
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    try:
        asyncio.run(main(parser.parse_args()))
    except KeyboardInterrupt:
        print("stopped")
