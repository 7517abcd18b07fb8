"""What the live-database suite, its benchmark and the demo share: the board's server instances
(diffable-web-db), viewer tokens signed here with Python's own HMAC (an implementation
independent of the server's), a protocol client that replays the server's steps into a list and
checks it after every message, and a writer on asyncpg that records when each commit returned.

Everything runs on loopback against the throwaway cluster of Web/Tests/PostgresTest/run_cluster.sh
(PGHOST, PGPORT, PGUSER, PGDATABASE; DIFFABLE_PG_RESTART restarts it).
"""
import asyncio
import base64
import hashlib
import hmac
import json
import os
import random
import re
import signal
import socket
import subprocess
import time

TEAMS = ["red", "green", "blue", "gold"]
COOKIE = "diffable_scope"
QUERY = "SELECT id, name, team, score, tag FROM players WHERE team = $1 ORDER BY score DESC, id"
# A row's markup as diffable-web-db renders it (LiveBoard.render).
ROW = re.compile(r'^<span class="name" data-id="(\d+)" data-team="([^"]*)" data-tag="(\d+)">([^<]*)</span>'
                 r'<span class="score">(-?\d+)</span>$')
# In a message the markup is a JSON string: its quotes arrive escaped.
TAG = re.compile(rb'data-tag=\\"(\d+)\\"')
HEADER = re.compile(rb'^\{"t":"(batch|reload|error)"(?:,"seq":(\d+))?')


def die_with_parent():
    """In a child before exec: SIGKILL when the harness dies (no server outlives a crashed run)."""
    import ctypes
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def process_cpu_seconds(pid):
    """utime + stime of a process, in seconds (from /proc); 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf(os.sysconf_names["SC_CLK_TCK"])


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def mint_token(secret, scope, expires_at):
    """A v1 scope token (ScopeToken's format), signed with `secret` (bytes)."""
    body = f"v1.{b64url(scope.encode())}.{int(expires_at)}"
    return body + "." + b64url(hmac.new(secret, body.encode(), hashlib.sha256).digest())


def database_dsn():
    env = os.environ
    return f"postgresql://{env['PGUSER']}@{env['PGHOST']}:{env['PGPORT']}/{env['PGDATABASE']}"


class Instance:
    """One diffable-web-db server process on `port`, its output in `log_path`."""

    def __init__(self, program, port, peer_ports, secret, log_dir, name):
        self.program, self.port, self.peer_ports, self.secret = program, port, peer_ports, secret
        self.log_path = os.path.join(log_dir, f"{name}.log")
        self.name = name
        self.process = None

    def start(self, extra=()):
        args = [self.program, "serve", "--port", str(self.port), *extra]
        for peer in self.peer_ports:
            args += ["--peer-port", str(peer)]
        env = dict(os.environ, DIFFABLE_SCOPE_SECRET=self.secret.decode())
        self.log = open(self.log_path, "a")
        self.process = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT, env=env, preexec_fn=die_with_parent)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with open(self.log_path) as f:
                if f"http://127.0.0.1:{self.port}/" in f.read():
                    return self
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited: {open(self.log_path).read()[-2000:]}")
            time.sleep(0.05)
        raise RuntimeError(f"{self.name} printed no URL in 60 s")

    @property
    def ws_url(self):
        return f"ws://127.0.0.1:{self.port}/board/ws"

    @property
    def page_url(self):
        return f"http://127.0.0.1:{self.port}/"

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def kill9(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.alive():
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        if self.process is not None:
            self.log.close()

    def cpu_seconds(self):
        return process_cpu_seconds(self.process.pid)

    def log_text(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()


_parsed = {}


def parse_row(markup):
    """(id, name, team, score, tag) of a row's markup (cached: the same markup reaches many clients)."""
    key = markup if isinstance(markup, str) else markup[0]
    found = _parsed.get(key)
    if found is None:
        if len(_parsed) > 500_000:
            _parsed.clear()
        found = _parsed[key] = _parse_row(key)
    return found


def _parse_row(markup):
    match = ROW.match(markup)
    if not match:
        raise ValueError(f"unexpected row markup {markup!r}")
    id_, team, tag, name, score = match.groups()
    return (int(id_), name, team, int(score), int(tag))


class ListClient:
    """A viewer speaking the wire protocol: replays every message into its own list of rows and
    checks it after each one (no duplicate id, no row of another team, every stable row of its
    team present). Connects to `endpoints` in turn, moving on when a connection ends."""

    def __init__(self, number, endpoints, secret, scope, stable_ids, record_tags=False):
        self.number, self.endpoints, self.secret = number, endpoints, secret
        self.scope = scope
        self.token = mint_token(secret, scope, time.time() + 3600)
        self.stable_ids = stable_ids  # team -> set of ids the writer never deletes nor moves
        self.record_tags = record_tags
        self.endpoint_index = number % len(endpoints)
        self.sections = []
        self.seq = 0
        self.awaiting_reload = True
        self.connected_to = None
        self.connections = 0
        self.reloads = 0
        self.messages = 0
        self.rows_checked = 0  # rows carried by messages, each checked for its team
        self.bytes = 0
        self.errors = []
        self.violations = []
        self.tag_arrivals = {}  # tag -> first arrival (monotonic)
        self.last_message_at = 0.0
        self.last_applied_at = 0.0  # when the list last changed (a reload or a batch applied)
        self.last_reload_at = 0.0
        self.paused_until = 0.0
        self.closed = False
        self.socket = None
        self.task = None

    def start(self):
        self.task = asyncio.create_task(self.run())
        return self

    async def stop(self):
        self.closed = True
        if self.socket is not None:
            await self.socket.close()
        if self.task:
            self.task.cancel()
            try:
                await self.task
            except (asyncio.CancelledError, Exception):
                pass

    async def switch_scope(self, scope):
        """Signs in as another team: a new token and a new connection."""
        self.scope = scope
        self.token = mint_token(self.secret, scope, time.time() + 3600)
        self.awaiting_reload = True
        if self.socket is not None:
            await self.socket.close()

    def rows(self):
        return [parse_row(row) for section in self.sections for row in section]

    async def run(self):
        import websockets
        while not self.closed:
            url = self.endpoints[self.endpoint_index]
            try:
                async with websockets.connect(url, additional_headers={"Cookie": f"{COOKIE}={self.token}"},
                                              max_size=None, compression=None, open_timeout=10,
                                              ping_interval=None, close_timeout=1) as socket_:
                    self.socket = socket_
                    self.connected_to = url
                    self.connections += 1
                    self.awaiting_reload = True
                    scope = self.scope
                    async for data in socket_:
                        if self.paused_until > time.monotonic():
                            await asyncio.sleep(self.paused_until - time.monotonic())
                        if scope != self.scope:
                            break  # signed in as another team: this connection's messages are stale
                        await self.receive(socket_, data, scope)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # refused, reset, closed: the next instance
                self.errors.append(f"{url}: {type(error).__name__}")
            self.socket = None
            self.connected_to = None
            if self.closed:
                break
            self.endpoint_index = (self.endpoint_index + 1) % len(self.endpoints)
            await asyncio.sleep(0.05)

    async def receive(self, socket_, data, scope):
        now = time.monotonic()
        raw = data.encode() if isinstance(data, str) else data
        self.messages += 1
        self.bytes += len(raw)
        self.last_message_at = now
        message = json.loads(raw)
        kind = message.get("t")
        if kind == "error":
            self.errors.append(f"server: {message.get('code')}: {message.get('message')}")
            return
        if self.record_tags:
            for tag in TAG.findall(raw):
                self.tag_arrivals.setdefault(int(tag), now)
        if kind in ("reload", "batch"):
            self.check_payload(message, scope)
        if kind == "reload":
            self.sections = [list(section[1]) for section in message["sections"]]
            self.seq = message["seq"]
            self.awaiting_reload = False
            self.reloads += 1
            self.last_reload_at = now
        elif kind == "batch":
            if self.awaiting_reload:
                await socket_.send('{"t":"ack","seq":%d}' % message["seq"])
                return
            if message["seq"] != self.seq + 1:
                self.violations.append(f"client {self.number}: sequence gap {self.seq} -> {message['seq']}")
                self.awaiting_reload = True
                await socket_.send('{"t":"resync"}')
                await socket_.send('{"t":"ack","seq":%d}' % message["seq"])
                return
            self.apply(message["steps"])
            self.seq = message["seq"]
        else:
            return
        self.last_applied_at = now
        self.check(scope)
        await socket_.send('{"t":"ack","seq":%d}' % self.seq)

    def apply(self, steps):
        sections = self.sections
        for step in steps:
            op = step[0]
            if op == "d":
                del sections[step[1]][step[2]]
            elif op == "i":
                sections[step[1]].insert(step[2], step[3])
            elif op == "m":
                row = sections[step[1]].pop(step[2])
                sections[step[3]].insert(step[4], step[5] if len(step) > 5 else row)
            elif op in ("r", "c"):
                sections[step[1]][step[2]] = step[3]
            elif op == "o":
                old = sections[step[1]]
                sections[step[1]] = [old[e] if isinstance(e, int) else e for e in step[2]]
            elif op == "D":
                del sections[step[1]]
            elif op == "I":
                sections.insert(step[1], list(step[2][1]))
            elif op == "M":
                sections.insert(step[2], sections.pop(step[1]))
            elif op == "R":
                sections[step[1]] = list(step[2][1])
            else:
                raise ValueError(f"unknown step {op!r}")

    def check_payload(self, message, scope):
        """Every row the message carries belongs to the connection's team (even one the same
        message deletes again: it reached the viewer)."""
        if message["t"] == "reload":
            rows = [row for section in message["sections"] for row in section[1]]
        else:
            rows = []
            for step in message["steps"]:
                if step[0] in ("i", "r", "c"):
                    rows.append(step[3])
                elif step[0] == "m" and len(step) > 5:
                    rows.append(step[5])
                elif step[0] == "o":
                    rows += [entry for entry in step[2] if not isinstance(entry, int)]
                elif step[0] in ("I", "R"):
                    rows += step[2][1]
        self.rows_checked += len(rows)
        foreign = [parse_row(row) for row in rows if parse_row(row)[2] != scope]
        if foreign:
            self.violations.append(f"client {self.number} ({scope}): a message carried {len(foreign)} rows of another team, "
                                   f"e.g. {foreign[0]}")

    def check(self, scope):
        """The invariants that must hold after every message."""
        rows = self.rows()
        ids = [row[0] for row in rows]
        if len(ids) != len(set(ids)):
            self.violations.append(f"client {self.number}: a duplicate row")
        foreign = [row for row in rows if row[2] != scope]
        if foreign:
            self.violations.append(f"client {self.number} ({scope}): {len(foreign)} rows of another team, e.g. {foreign[0]}")
        missing = self.stable_ids.get(scope, set()) - set(ids)
        if missing:
            self.violations.append(f"client {self.number}: {len(missing)} stable rows missing, e.g. {sorted(missing)[:3]}")


class Writer:
    """Writes to `players` at `rate` commits a second: inserts, re-ranking updates, deletes and
    moves between teams; never deletes nor moves the stable rows (ids 1..stable). Records when
    each commit returned (its tag: the commit number), and rides out a database restart."""

    def __init__(self, rows, stable, rate, updates_per_commit=3, moves=True, seed=41, teams=TEAMS):
        self.rows, self.stable, self.rate = rows, stable, rate
        self.updates_per_commit, self.moves, self.teams = updates_per_commit, moves, teams
        self.random = random.Random(seed)
        self.commit = 0
        self.commit_times = {}
        self.next_id = rows + 1
        self.failures = 0
        self.running = asyncio.Event()
        self.connection = None
        self.task = None

    def stable_ids(self):
        result = {team: set() for team in self.teams}
        for id_ in range(1, self.stable + 1):
            result[self.team_of(id_)].add(id_)
        return result

    def team_of(self, id_):
        return self.teams[id_ % len(self.teams)]

    async def connect(self):
        import asyncpg
        if self.connection is not None and not self.connection.is_closed():
            return self.connection
        self.connection = await asyncpg.connect(database_dsn())
        return self.connection

    async def seed(self):
        connection = await self.connect()
        await connection.execute("TRUNCATE players")
        await connection.copy_records_to_table(
            "players", columns=["id", "name", "team", "score", "tag"],
            records=[(i, f"Player {i}", self.team_of(i), self.random.randrange(100_000), 0) for i in range(1, self.rows + 1)])
        await connection.execute("ANALYZE players")

    async def expected(self, team):
        connection = await self.connect()
        return [tuple(record) for record in await connection.fetch(QUERY, team)]

    async def one_commit(self):
        connection = await self.connect()
        self.commit += 1
        tag = self.commit
        rnd = self.random
        if not self.moves:
            # Re-ranking only (the benchmark): one statement updates updates_per_commit rows.
            ids = rnd.sample(range(1, self.rows + 1), self.updates_per_commit)
            deltas = [rnd.randrange(-3000, 6000) for _ in ids]
            await connection.execute("UPDATE players AS p SET score = p.score + v.d, tag = $1 "
                                     "FROM unnest($2::int[], $3::int[]) AS v(id, d) WHERE p.id = v.id", tag, ids, deltas)
            self.commit_times[tag] = time.monotonic()
            return
        async with connection.transaction():
            for _ in range(self.updates_per_commit):
                await connection.execute("UPDATE players SET score = score + $1, tag = $2 WHERE id = $3",
                                         rnd.randrange(-3000, 6000), tag, rnd.randrange(1, self.next_id))
            if self.moves:
                await connection.execute("INSERT INTO players VALUES ($1, $2, $3, $4, $5)", self.next_id,
                                         f"Player {self.next_id}", rnd.choice(self.teams), rnd.randrange(100_000), tag)
                self.next_id += 1
                victim = rnd.randrange(self.stable + 1, self.next_id)
                await connection.execute("DELETE FROM players WHERE id = $1", victim)
                mover = rnd.randrange(self.stable + 1, self.next_id)
                await connection.execute("UPDATE players SET team = $1, tag = $2 WHERE id = $3", rnd.choice(self.teams), tag, mover)
        self.commit_times[tag] = time.monotonic()

    async def run(self):
        period = 1.0 / self.rate
        deadline = time.monotonic()
        while True:
            await self.running.wait()
            deadline = max(deadline + period, time.monotonic())
            await asyncio.sleep(max(0.0, deadline - time.monotonic()))
            if not self.running.is_set():
                continue
            try:
                await self.one_commit()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database restarting: connect again next time
                self.failures += 1
                self.commit -= 1
                if self.connection is not None:
                    self.connection.terminate()
                self.connection = None
                await asyncio.sleep(0.1)

    def start(self):
        self.running.set()
        if self.task is None:
            self.task = asyncio.create_task(self.run())

    async def pause(self):
        """Stops writing; returns once the commit under way (if any) returned."""
        self.running.clear()
        await asyncio.sleep(period_guard(self.rate))

    async def stop(self):
        self.running.clear()
        if self.task:
            self.task.cancel()
            try:
                await self.task
            except asyncio.CancelledError:
                pass
        if self.connection is not None:
            await self.connection.close()


def period_guard(rate):
    """Long enough for a commit that had started to return."""
    return 2.0 / rate + 0.2


async def wait_converged(clients, expected_by_team, timeout):
    """Seconds until every client's rows equal its team's expected rows, or None after `timeout`."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if all(not c.awaiting_reload and c.rows() == expected_by_team[c.scope] for c in clients):
            return time.monotonic() - start
        await asyncio.sleep(0.05)
    return None


def percentile(values, p):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, int(round(p / 100 * (len(ordered) - 1)))))
    return ordered[index]
