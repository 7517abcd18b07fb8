#!/usr/bin/env python3
"""The live board on a real PostgreSQL, across three server instances, under load and faults.

Run inside a throwaway cluster (make web-db-test does: Web/Tests/PostgresTest/run_cluster.sh):

    live_database_test.py --program Web/.build/debug/diffable-web-db [--steady 60]

Three diffable-web-db instances on one database; 150 protocol clients (livedb.ListClient, each
replaying the steps into its own list and checking it after every message) and 3 Chromium pages,
spread over the instances and the four teams (each viewer's team comes from a signed cookie); a
writer inserting, re-ranking, deleting and moving rows between teams. Then, each while the writer
writes: kill -9 of an instance, PostgreSQL restarts, clients that stop reading for 10 s, a burst
of 10^4 writes in one transaction; and hostile connections (oversized and malformed messages, a
foreign Origin, forged, expired and missing tokens). After each fault every viewer must equal a
direct SELECT of its team; at no message may a viewer hold a duplicate row, a row of another
team, or lack a row that was never deleted nor moved. Prints the fault table and ends with
"Live database: N passed, M failed".
"""
import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from livedb import TEAMS, COOKIE, Instance, ListClient, Writer, free_port, mint_token, wait_converged  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# Installed in each page: checks the DOM after every applied message (the same invariants as the
# protocol clients') and reads the rows back.
PAGE_CHECKER = """([team, stable]) => {
  window.violations = [];
  const check = () => {
    const names = Array.from(document.querySelectorAll('#board .dl-row .name'));
    const ids = names.map((n) => n.dataset.id);
    if (new Set(ids).size !== ids.length) violations.push('a duplicate row');
    const foreign = names.filter((n) => n.dataset.team !== team);
    if (foreign.length) violations.push(foreign.length + ' rows of another team, e.g. ' + foreign[0].dataset.id);
    const present = new Set(ids);
    const missing = stable.filter((id) => !present.has(String(id)));
    if (missing.length) violations.push(missing.length + ' stable rows missing');
  };
  window.list.options.onApplied = check;
  check();
}"""
PAGE_ROWS = """() => Array.from(document.querySelectorAll('#board .dl-row')).map((row) => {
  const name = row.querySelector('.name');
  return [Number(name.dataset.id), name.textContent, name.dataset.team,
          Number(row.querySelector('.score').textContent), Number(name.dataset.tag)];
})"""


class Suite:
    def __init__(self, args):
        self.args = args
        self.passed = 0
        self.failed = 0
        self.faults = []

    def check(self, condition, what):
        print(("ok: " if condition else "FAILED: ") + what, flush=True)
        if condition:
            self.passed += 1
        else:
            self.failed += 1
        return condition

    async def expected(self):
        return {team: await self.writer.expected(team) for team in TEAMS}

    async def page_rows(self, page):
        return [tuple(row) for row in await page.evaluate(PAGE_ROWS)]

    async def converge(self, name, clients_desc, since=None, timeout=60):
        """Pauses the writer, then waits until every client and page equals a direct SELECT."""
        await self.writer.pause()
        paused = time.monotonic()
        last_commit = max(self.writer.commit_times.values())
        expected = await self.expected()
        seconds = await wait_converged(self.clients, expected, timeout)
        pages_equal = False
        while time.monotonic() - paused < timeout:
            rows = [await self.page_rows(page) for page, _ in self.pages]
            if all(rows[i] == expected[team] for i, (_, team) in enumerate(self.pages)):
                pages_equal = True
                break
            await asyncio.sleep(0.1)
        converged = sum(1 for c in self.clients if not c.awaiting_reload and c.rows() == expected[c.scope])
        pages = len(self.pages) if pages_equal else 0
        # When the last protocol client applied the message that made it equal (the pages are
        # polled: they are only known to be equal by the time the poll saw it).
        if seconds is not None:
            total = max(0.0, max(c.last_applied_at for c in self.clients) - last_commit)
        else:
            total = time.monotonic() - last_commit
        self.check(seconds is not None and pages_equal,
                   f"{name}: {converged}/{len(self.clients)} clients and {pages}/{len(self.pages)} pages equal "
                   f"a direct SELECT; the last client {total:.3f} s after the last commit")
        row = {"fault": name, "clients": clients_desc, "converged": f"{converged}/{len(self.clients)} + {pages}/{len(self.pages)} pages",
               "seconds_after_last_commit": round(total, 3)}
        if since is not None:
            row["seconds_after_fault"] = round(max(c.last_applied_at for c in self.clients) - since, 2)
        self.faults.append(row)
        self.writer.start()

    async def run(self):
        args = self.args
        secret = os.urandom(24).hex().encode()  # 48 ASCII bytes
        self.secret = secret
        log_dir = tempfile.mkdtemp(prefix="diffable-live-db.")
        subprocess.run([args.program, "setup"], check=True)
        self.writer = Writer(rows=args.rows, stable=args.stable, rate=args.rate)
        await self.writer.seed()
        stable = self.writer.stable_ids()
        ports = [free_port() for _ in range(3)]
        # Instances 0 and 1 in row-level mode (the default), instance 2 re-querying: both modes
        # through every fault, side by side.
        self.instances = [Instance(args.program, port, [p for p in ports if p != port], secret, log_dir, f"instance{i}")
                          .start(["--requery"] if i == 2 else []) for i, port in enumerate(ports)]
        urls = [instance.ws_url for instance in self.instances]
        print(f"3 instances on ports {ports}; logs in {log_dir}", flush=True)

        self.clients = []
        for i in range(args.clients):
            first = i % 3
            self.clients.append(ListClient(i, urls[first:] + urls[:first], secret, TEAMS[i % len(TEAMS)], stable).start())
        from playwright.async_api import async_playwright
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            self.browser = browser
            self.pages = []
            for i, instance in enumerate(self.instances):
                team = TEAMS[i % len(TEAMS)]
                context = await browser.new_context()
                await context.add_cookies([{"name": COOKIE, "value": mint_token(secret, team, time.time() + 3600),
                                            "url": instance.page_url}])
                page = await context.new_page()
                await page.goto(instance.page_url)
                await page.wait_for_function("() => window.list && window.list.stats.reloads > 0", timeout=60_000)
                await page.evaluate(PAGE_CHECKER, [team, sorted(stable[team])])
                self.pages.append((page, team))
            try:
                await self.scenario(stable)
            finally:
                violations = [v for c in self.clients for v in c.violations]
                page_violations = [v for page, _ in self.pages for v in await page.evaluate("window.violations")]
                await browser.close()
                for client in self.clients:
                    await client.stop()
                await self.writer.stop()
                alive = [instance.alive() for instance in self.instances]
                for instance in self.instances:
                    instance.stop()
        self.check(not violations, f"no protocol client ever received a row of another team, held a duplicate row or lacked "
                                   f"a stable row ({sum(c.messages for c in self.clients)} messages and "
                                   f"{sum(c.rows_checked for c in self.clients)} rows they carried checked; {len(violations)} violations"
                                   + (f", e.g. {violations[:3]})" if violations else ")"))
        self.check(not page_violations, f"no page ever did either ({len(page_violations)} violations"
                                        + (f", e.g. {page_violations[:3]})" if page_violations else ")"))
        self.check(alive == [False, True, True], f"the instances left standing never crashed (alive: {alive})")
        print("\n| fault | clients | converged | time to converge |\n| --- | --- | --- | --- |")
        for row in self.faults:
            after = f"{row['seconds_after_last_commit']:.3f} s after the last commit"
            if "seconds_after_fault" in row:
                after += f" ({row['seconds_after_fault']:.2f} s after the fault, writing on meanwhile)"
            if "reconnected_seconds" in row:
                after += f"; moved clients reloaded {row['reconnected_seconds']:.2f} s after the kill"
            print(f"| {row['fault']} | {row['clients']} | {row['converged']} | {after} |")
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"faults": self.faults, "passed": self.passed, "failed": self.failed}, f, indent=2)

    async def scenario(self, stable):
        args = self.args
        start = time.monotonic()
        while not all(c.reloads > 0 for c in self.clients):
            if time.monotonic() - start > 90:
                break
            await asyncio.sleep(0.1)
        self.check(all(c.reloads > 0 for c in self.clients),
                   f"{sum(c.reloads > 0 for c in self.clients)}/{len(self.clients)} protocol clients connected "
                   f"({time.monotonic() - start:.1f} s)")

        # The leak check can fail: a control viewer signed in as blue but expecting red rows
        # must see violations at once (it is not one of the suite's clients).
        control = ListClient(-1, [self.instances[1].ws_url], self.secret, "red", stable)
        control.token = mint_token(self.secret, "blue", time.time() + 3600)
        control.start()
        for _ in range(200):
            if control.reloads:
                break
            await asyncio.sleep(0.05)
        await control.stop()
        self.check(any("another team" in v for v in control.violations),
                   f"control: a viewer given blue rows while expecting red is flagged ({len(control.violations)} violations)")

        # Steady writing; midway, a tenth of the clients sign in as another team.
        self.writer.start()
        await asyncio.sleep(args.steady / 2)
        switched = self.clients[::10]
        for client in switched:
            await client.switch_scope(TEAMS[(TEAMS.index(client.scope) + 1) % len(TEAMS)])
        await self.hostile()
        await self.expiry()
        await asyncio.sleep(args.steady / 2)
        await self.converge(f"none: {args.steady:g} s of writing at {args.rate:g} commits/s, "
                            f"{len(switched)} clients changing team", f"{len(self.clients)} + 3 pages")
        self.check(self.writer.commit > 0, f"the writer committed {self.writer.commit} transactions so far")

        # kill -9 of an instance mid-write: its clients move to the others.
        victim = self.instances[0]
        on_victim = [c for c in self.clients if c.connected_to == victim.ws_url]
        connections_before = {c.number: c.connections for c in on_victim}
        page_connections = await self.pages[0][0].evaluate("window.list.connections")
        killed = time.monotonic()
        victim.kill9()
        await asyncio.sleep(3)
        moved = [c for c in on_victim if c.connections > connections_before[c.number] and c.connected_to not in (None, victim.ws_url)]
        reloaded = max((c.last_reload_at for c in moved), default=killed) - killed
        await self.converge("kill -9 of an instance mid-write", f"{len(on_victim)} moved of {len(self.clients)} + 1 page moved",
                            since=killed)
        self.check(len(on_victim) > 0 and len(moved) == len(on_victim),
                   f"the killed instance's {len(on_victim)} clients reconnected to another instance within 3 s ({len(moved)} did; "
                   f"the last had its reload {reloaded:.2f} s after the kill)")
        self.faults[-1]["reconnected_seconds"] = round(reloaded, 2)
        page_moved = await self.pages[0][0].evaluate("window.list.connections") > page_connections and \
            await self.pages[0][0].evaluate("window.list.url.port") != str(victim.port)
        self.check(page_moved, "the page served by the killed instance moved to another instance")

        # PostgreSQL restarts mid-write (several: a restart that lands while a query streams its
        # rows is the one that once left a session hanging): the instances listen and query
        # again, the writer reconnects.
        await asyncio.sleep(1)
        failures_before = self.writer.failures
        for restart_number in range(args.restarts):
            restarted = time.monotonic()
            restart = await asyncio.to_thread(subprocess.run, os.environ["DIFFABLE_PG_RESTART"], shell=True, capture_output=True)
            self.check(restart.returncode == 0, f"PostgreSQL restart {restart_number + 1} ({time.monotonic() - restarted:.1f} s)")
            await asyncio.sleep(1.3)
        await asyncio.sleep(2)
        await self.converge(f"PostgreSQL restarted {args.restarts} times mid-write", f"{len(self.clients)} + 3 pages", since=restarted)
        print(f"the writer rode out the restart ({self.writer.failures - failures_before} failed commits retried)")

        # Clients that stop reading for 10 s: the others go on receiving.
        slow = self.clients[1:6]
        others = [c for c in self.clients if c not in slow and c.connected_to is not None]
        counts = {c.number: c.messages for c in others}
        commits = self.writer.commit
        paused = time.monotonic()
        for client in slow:
            client.paused_until = paused + 10
        await asyncio.sleep(10)
        window_commits = self.writer.commit - commits
        received = sorted(c.messages - counts[c.number] for c in others)
        # Held back, they would get nothing until the slow ones read again; at least one
        # message a second each (coalescing may fold commits when the machine is busy).
        self.check(received and received[0] >= 10 and window_commits > 0,
                   f"while {len(slow)} clients stopped reading 10 s, the other {len(others)} each received at least "
                   f"{received[0] if received else 0} messages (median {received[len(received) // 2] if received else 0}) "
                   f"for {window_commits} commits")
        await asyncio.sleep(0.5)
        await self.converge("5 clients stop reading for 10 s", f"{len(slow)} slow of {len(self.clients)} + 3 pages", since=paused)

        # A burst of 10^4 writes in one transaction.
        await self.writer.pause()
        connection = await self.writer.connect()
        self.writer.commit += 1
        tag = self.writer.commit
        rnd = self.writer.random
        ids = [r["id"] for r in await connection.fetch("SELECT id FROM players")]
        burst = time.monotonic()
        async with connection.transaction():
            await connection.executemany("UPDATE players SET score = $1, tag = $2 WHERE id = $3",
                                         [(rnd.randrange(100_000), tag, rnd.choice(ids)) for _ in range(10_000)])
        self.writer.commit_times[tag] = time.monotonic()
        self.writer.start()
        await asyncio.sleep(1)
        await self.converge("a burst of 10^4 updates in one transaction", f"{len(self.clients)} + 3 pages", since=burst)

    async def hostile(self):
        """Hostile connections to instance 1: each refused with a logged reason, no crash."""
        import websockets
        instance = self.instances[1]
        url = instance.ws_url
        good = mint_token(self.secret, "red", time.time() + 3600)
        refusals = {
            "a foreign Origin": ({"Cookie": f"{COOKIE}={good}"}, "http://evil.example", "is not this site"),
            "a forged token": ({"Cookie": f"{COOKIE}={mint_token(b'x' * 48, 'red', time.time() + 3600)}"}, None,
                               "signature is not this server's"),
            "an expired token": ({"Cookie": f"{COOKIE}={mint_token(self.secret, 'red', time.time() - 5)}"}, None, "expired at"),
            "no token": ({}, None, "no diffable_scope cookie"),
            "a token whose scope was edited": ({"Cookie": f"{COOKIE}={good.replace('.cmVk.', '.Ymx1ZQ.')}"}, None,
                                               "signature is not this server's"),
        }
        for what, (headers, origin, reason) in refusals.items():
            status = None
            try:
                async with websockets.connect(url, additional_headers=headers, origin=origin, open_timeout=10):
                    status = 101
            except websockets.exceptions.InvalidStatus as error:
                status = error.response.status_code
            except Exception as error:
                status = type(error).__name__
            await asyncio.sleep(0.2)
            self.check(status in (400, 403) and reason in instance.log_text(),
                       f"{what}: refused (HTTP {status}), logged ({reason!r})")
        # Oversized and malformed messages on an authenticated connection.
        async with websockets.connect(url, additional_headers={"Cookie": f"{COOKIE}={good}"}, max_size=None) as socket_:
            await socket_.send('{"t":')
            malformed = await self.next_error(socket_)
            await socket_.send('{"t":"filter","text":"' + "x" * 6000 + '"}')
            oversized = await self.next_error(socket_)
            closed = False

            async def read_until_closed():
                # A batch queued for this client before its error may still come before the close.
                while True:
                    await socket_.recv()
            try:
                await asyncio.wait_for(read_until_closed(), 5)
            except websockets.exceptions.ConnectionClosed:
                closed = True
            except asyncio.TimeoutError:
                pass
        await asyncio.sleep(0.2)
        log = instance.log_text()
        self.check(malformed == "malformed" and "client message refused: malformed" in log,
                   f"a malformed message: answered {malformed!r}, logged")
        logged = "client message refused: too-large" in log
        self.check(oversized == "too-large" and closed and logged,
                   f"an oversized message: answered {oversized!r}, connection closed: {closed}, logged: {logged}")
        self.check(all(i.alive() for i in self.instances), "every instance still runs after the hostile input")

    async def expiry(self):
        """A token that expires while its connection is open: the server closes the connection then
        (status 4401, the reason logged), and the browser client reports it instead of reconnecting."""
        import websockets
        instance = self.instances[1]
        lifetime = 4
        expires = int(time.time()) + lifetime  # tokens carry whole seconds
        token = mint_token(self.secret, "gold", expires)
        page = await (await self.browser.new_context()).new_page()
        await page.context.add_cookies([{"name": COOKIE, "value": token, "url": instance.page_url}])
        await page.goto(instance.page_url)
        code, reason, messages = None, None, 0
        async with websockets.connect(instance.ws_url, additional_headers={"Cookie": f"{COOKIE}={token}"}, max_size=None,
                                      ping_interval=None) as socket_:
            async def read_until_closed():
                nonlocal messages
                while True:
                    message = json.loads(await socket_.recv())
                    messages += 1
                    if message.get("t") in ("reload", "batch"):
                        await socket_.send('{"t":"ack","seq":%d}' % message["seq"])
            try:
                # Bounded as a whole: the writer keeps messages coming to a connection never closed.
                await asyncio.wait_for(read_until_closed(), lifetime + 5)
            except websockets.exceptions.ConnectionClosed as closed:
                code, reason = closed.rcvd.code if closed.rcvd else None, closed.rcvd.reason if closed.rcvd else None
            except asyncio.TimeoutError:
                pass
        late = time.time() - expires
        await asyncio.sleep(0.3)
        self.check(code == 4401 and reason == "credentials expired" and -0.1 <= late < 3
                   and "credentials for scope gold expired" in instance.log_text(),
                   f"a token expiring while its connection is open: closed {late:.1f} s after expiry with status {code} "
                   f"({reason!r}) after {messages} messages, logged")
        await asyncio.sleep(2)  # a client that reconnected would have tried by now (its first retry is within 250 ms)
        state = await page.evaluate("() => [window.list.statusText, window.list.expired, window.list.connections]")
        self.check(state[0] == "signed out: credentials expired" and state[1] is True and state[2] == 1,
                   f"the page whose cookie expired reports it and does not reconnect (status {state[0]!r}, "
                   f"connections {state[2]})")
        await page.context.close()

    @staticmethod
    async def next_error(socket_):
        """The code of the next error message (reloads and batches before it are skipped)."""
        import websockets
        while True:
            message = json.loads(await asyncio.wait_for(socket_.recv(), 10))
            if message.get("t") == "error":
                return message.get("code")
            if message.get("t") in ("reload", "batch"):
                try:
                    await socket_.send('{"t":"ack","seq":%d}' % message["seq"])
                except websockets.exceptions.ConnectionClosed:
                    # The server closed after its error (too-large), and a batch sent before the
                    # error is read only now: its ack cannot go, the error is still to be read.
                    pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--program", required=True, help="the built diffable-web-db")
    parser.add_argument("--clients", type=int, default=150)
    parser.add_argument("--rows", type=int, default=600, help="rows at the start, spread over the four teams")
    parser.add_argument("--stable", type=int, default=80, help="ids 1..N are only re-ranked, never deleted nor moved")
    parser.add_argument("--rate", type=float, default=10, help="writer commits a second")
    parser.add_argument("--steady", type=float, default=12, help="seconds of writing before the faults")
    parser.add_argument("--restarts", type=int, default=3, help="PostgreSQL restarts in the restart fault")
    parser.add_argument("--json", help="also write the fault table here")
    args = parser.parse_args()
    suite = Suite(args)
    try:
        asyncio.run(suite.run())
    except Exception as error:
        import traceback
        traceback.print_exc()
        suite.check(False, f"the suite ran to its end ({type(error).__name__}: {error})")
    print(f"Live database: {suite.passed} passed, {suite.failed} failed")
    sys.exit(0 if suite.failed == 0 else 1)


if __name__ == "__main__":
    main()
