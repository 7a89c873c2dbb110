"""A bounded load test of ``cheekymonkey serve`` on 127.0.0.1: whole games at once, or a plain request beside busy bots.

**Games** (the default).
It starts a real server process (``python -m cheekymonkey serve``, its rooms in an SQLite file in a
temporary folder, as by default), makes ``--rooms`` rooms of two people and one bot (``--bot``, heuristic by
default), and runs two clients per room. Each client follows its seat's server-sent event stream and,
whenever its table lists legal moves, posts one of them at random with the table's version, until the game
is over. Every client speaks raw HTTP/1.1 over asyncio streams, with keep-alive, so the client side stays
cheap next to the server.

It reports the move latency as the clients saw it (median, 99th percentile, worst), the server's CPU time
per person's move, the server's peak resident memory (its high-water mark, ``VmHWM``) and its resident
memory per room, and the event-stream messages delivered.

And it checks that nothing was lost or mixed between rooms:

- every message a client gets names its own room, seat and the room's own seat names;
- each client's events arrive numbered without a gap, and at the end equal the room's whole log;
- every game ends (over by its rules), and no move is refused but as stale (a retry would be).

**Latency beside bots** (``--latency``). Does a bot's thinking hold up other requests? For each way the
server may run its bots (``--workers``: ``0`` is a thread of the server, as before; ``1`` or more, worker
processes), it starts a server and measures ``GET /api/options``, one request at a time over one
keep-alive connection, ``--samples`` times with a pause of ``--gap`` seconds between, first with no room
open (idle), then while ``--rooms`` rooms of one person and ``--bots`` bots (``--bot``, MCTS by default)
play: each person takes a random legal move whenever it is their turn, and a room whose game ends is
replaced by a new one, so the bots never rest. It reports the 50th and 95th percentiles (and the worst) of
both, side by side, with the bots' moves made meanwhile, and the ratio of the two 95th percentiles.

Run from the repository root, with the ``web`` extra installed::

    python benchmarks/web_load.py --rooms 100
    python benchmarks/web_load.py --rooms 20 --json   # one JSON line, as the test suite runs it
    python benchmarks/web_load.py --latency            # 8 rooms of 5 MCTS bots, bots in a thread, then in a worker

The exit status is 1 if any check failed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import socket
import subprocess
import sys
import tempfile
import time
from typing import Any

FORMAT = "cheekymonkey/1"


class Connection:
    """One keep-alive HTTP/1.1 connection: a request at a time, answers read by Content-Length or chunks."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, port: int) -> Connection:
        """Connect to the server on 127.0.0.1."""
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return cls(reader, writer)

    def close(self) -> None:
        """Close the connection."""
        self.writer.close()

    def reconnect(self, fresh: Connection) -> None:
        """Close this connection and carry on over ``fresh``."""
        self.writer.close()
        self.reader, self.writer = fresh.reader, fresh.writer

    async def send(self, method: str, path: str, body: bytes | None = None, token: str | None = None) -> None:
        """Write one request, with the seat's token in the Authorization header if given."""
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
        if token is not None:
            lines.append(f"Authorization: Bearer {token}")
        if body is not None:
            lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b""))
        await self.writer.drain()

    async def head(self) -> tuple[int, dict[str, str]]:
        """Read an answer's status and headers."""
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionError("the server closed the connection")
        status = int(status_line.split()[1])
        headers = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            headers[name.strip().lower()] = value.strip()
        return status, headers

    async def request(self, method: str, path: str, body: object = None, token: str | None = None) -> tuple[int, Any]:
        """One request with a JSON body; return the status and the decoded JSON answer."""
        await self.send(method, path, None if body is None else json.dumps(body).encode(), token)
        status, headers = await self.head()
        payload = await self.reader.readexactly(int(headers.get("content-length", "0")))
        return status, json.loads(payload)

    async def chunks(self) -> Any:
        """The body of a chunked answer (an event stream), chunk by chunk, until it ends."""
        while True:
            size = int((await self.reader.readline()).strip() or b"0", 16)
            if size == 0:
                return
            data = await self.reader.readexactly(size + 2)
            yield data[:-2]


class Stats:
    """What every client measured and found."""

    def __init__(self) -> None:
        self.requests = 0
        self.latencies: list[float] = []
        self.messages = 0
        self.reconnects = 0
        self.stale = 0
        self.problems: list[str] = []


class Client:
    """One person at one seat: follows the stream, and plays a random legal move whenever it is their turn."""

    def __init__(self, port: int, room: RoomPlay, seat: int, token: str, stats: Stats, rng: random.Random) -> None:
        self.port = port
        self.room = room
        self.seat = seat
        self.token = token
        self.stats = stats
        self.rng = rng
        self.events: list[dict[str, Any]] = []
        self.version = -1  # the newest table seen
        self.accepted = 0

    def check(self, message: dict[str, Any]) -> None:
        """Note a problem if ``message`` is not for this room and seat, or shows another room's seats."""
        room = self.room
        if message["room"] != room.id or message["seat"] != self.seat:
            self.stats.problems.append(f"room {room.id} seat {self.seat} got a message for {message['room']}")
        if [s["name"] for s in message["seats"]] != room.names:
            self.stats.problems.append(f"room {room.id} seat {self.seat} got another room's seats")

    def take_events(self, events: list[dict[str, Any]]) -> None:
        """Add newly numbered events to this client's log, noting any gap."""
        for item in events:
            if item["seq"] < len(self.events):
                continue  # already had it (a move's answer and the stream may both carry it)
            if item["seq"] != len(self.events):
                self.stats.problems.append(f"room {self.room.id} seat {self.seat} missed events before {item['seq']}")
            self.events.append(item)

    async def play(self) -> None:
        """Follow the seat's event stream and move whenever the table says it may, until the game is over."""
        try:
            await self._play()
        except Exception as error:  # any failure is a finding, and must not leave the room hanging
            self.stats.problems.append(f"room {self.room.id} seat {self.seat} failed: {error!r}")
            self.room.done.set()

    async def _play(self) -> None:
        stream = await Connection.open(self.port)
        moves = await Connection.open(self.port)
        try:
            await stream.send("GET", "/api/events", token=self.token)
            status, _ = await stream.head()
            if status != 200:
                self.stats.problems.append(f"room {self.room.id} seat {self.seat}: stream answered {status}")
                self.room.done.set()
                return
            buffer = b""
            async for chunk in stream.chunks():
                buffer += chunk
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    data = [line[6:] for line in block.split(b"\n") if line.startswith(b"data: ")]
                    if not data:
                        continue
                    message = json.loads(b"\n".join(data))
                    self.stats.messages += 1
                    if await self.react(message, moves):
                        return
        finally:
            stream.close()
            moves.close()

    async def react(self, message: dict[str, Any], moves: Connection) -> bool:
        """Move while it is this seat's turn; return True once the game is over."""
        while True:
            self.check(message)
            self.take_events(message["events"])
            if message["version"] < self.version:
                return False  # an old table: a newer one was already seen
            self.version = message["version"]
            if message["waiting"] in ("over", "truncated"):
                self.room.done.set()
                return True
            if not message["legal"]:
                return False
            body = {"version": message["version"], "action": self.rng.choice(message["legal"])["action"]}
            started = time.perf_counter()
            try:
                status, answer = await moves.request("POST", "/api/move", body, self.token)
            except (ConnectionError, asyncio.IncompleteReadError):
                # The server closes a keep-alive connection left idle; like a browser, open a new one and
                # send the move again (its version makes the retry safe).
                moves.reconnect(await Connection.open(self.port))
                self.stats.reconnects += 1
                status, answer = await moves.request("POST", "/api/move", body, self.token)
            self.stats.latencies.append(time.perf_counter() - started)
            self.stats.requests += 1
            if status == 409 and "table" in answer and "moved on" in answer["error"]:
                self.stats.stale += 1
                message = answer["table"]
                continue
            if status != 200:
                self.stats.problems.append(f"room {self.room.id} seat {self.seat}: {body} answered {status} {answer}")
                self.room.done.set()
                return True
            self.accepted += 1
            message = answer


class RoomPlay:
    """One room under load: its id, its seats' names and tokens, and its two clients."""

    def __init__(self, room: dict[str, Any]) -> None:
        self.id: str = room["room"]
        self.names = [seat["name"] for seat in room["seats"]]
        self.tokens = {seat["seat"]: seat["link"].split("#", 1)[1] for seat in room["seats"] if "link" in seat}
        self.done = asyncio.Event()
        self.clients: list[Client] = []


def rss_kib(pid: int, field: str = "VmRSS") -> int:
    """A process's resident memory now (``VmRSS``) or at its peak (``VmHWM``), in KiB (Linux)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} line")


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user and system), in seconds (Linux)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def wait_for_server(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            connection = await Connection.open(port)
            status, _ = await connection.request("GET", "/api/options")
            connection.close()
            if status == 200:
                return
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        await asyncio.sleep(0.1)


async def run(rooms: int, bot: str, seed: int, pid: int, port: int) -> dict[str, Any]:
    stats = Stats()
    rng = random.Random(seed)
    admin = await Connection.open(port)
    before = rss_kib(pid)
    cpu_before = cpu_seconds(pid)
    started = time.perf_counter()
    plays = []
    for index in range(rooms):
        seats = [{"name": f"r{index}a"}, {"name": f"r{index}b"}, {"name": f"r{index}bot", "bot": bot}]
        status, answer = await admin.request("POST", "/api/rooms", {"preset": "standard", "seats": seats})
        stats.requests += 1
        if status != 201:
            raise RuntimeError(f"making room {index} answered {status}: {answer}")
        play = RoomPlay(answer)
        play.clients = [
            Client(port, play, seat, token, stats, random.Random(rng.getrandbits(64)))
            for seat, token in sorted(play.tokens.items())
        ]
        plays.append(play)
    tasks = [asyncio.create_task(client.play()) for play in plays for client in play.clients]
    for play in plays:
        await play.done.wait()
    await asyncio.sleep(0.5)  # the last tables reach the other seat's stream
    for task in tasks:
        task.cancel()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    elapsed = time.perf_counter() - started
    for result in results:
        if isinstance(result, BaseException) and not isinstance(result, asyncio.CancelledError):
            stats.problems.append(f"a client failed: {result!r}")
    after = rss_kib(pid)
    peak = rss_kib(pid, "VmHWM")
    server_cpu = cpu_seconds(pid) - cpu_before
    admin.close()
    admin = await Connection.open(port)  # the first one sat idle past the server's keep-alive timeout
    finished = 0
    # The checks: each room's whole log against what its clients saw, and every game over.
    for play in plays:
        for client in play.clients:
            status, table = await admin.request("GET", "/api/table?since=0", token=client.token)
            stats.requests += 1
            client.check(table)
            if table["events"][: len(client.events)] != client.events:
                stats.problems.append(f"room {play.id} seat {client.seat}: its events differ from the room's log")
        if table["waiting"] == "over":
            finished += 1
        else:
            stats.problems.append(f"room {play.id} stopped with its game {table['waiting']}")
    admin.close()
    latencies = sorted(stats.latencies)
    move_requests = len(latencies)

    def ms(fraction: float) -> float | None:
        if not latencies:
            return None
        return round(latencies[min(len(latencies) - 1, int(len(latencies) * fraction))] * 1000, 2)

    return {
        "rooms": rooms,
        "bot": bot,
        "games_finished": finished,
        "moves": move_requests,
        "stale_moves": stats.stale,
        "requests": stats.requests,
        "seconds": round(elapsed, 3),
        "moves_per_second": round(move_requests / elapsed, 1),
        "latency_ms_p50": ms(0.5),
        "latency_ms_p99": ms(0.99),
        "latency_ms_max": ms(1.0),
        # The server's own CPU time per person's move (its request, the stream messages, the bot's move and
        # the commits it leads to): unlike the rates above, it barely depends on what else the machine does.
        "server_cpu_ms_per_move": round(server_cpu / max(1, move_requests) * 1000, 3),
        "stream_messages": stats.messages,
        "reconnects": stats.reconnects,
        "server_rss_kib_before": before,
        "server_rss_kib_after": after,
        "server_peak_rss_kib": peak,
        "memory_kib_per_room": round((after - before) / rooms, 1),
        "problems": stats.problems,
        "load_average": os.getloadavg()[0],
    }


def percentile(samples: list[float], fraction: float) -> float | None:
    """The ``fraction`` percentile of ``samples`` (nearest rank), in milliseconds, or None if there are none."""
    if not samples:
        return None
    ordered = sorted(samples)
    return round(ordered[min(len(ordered) - 1, int(len(ordered) * fraction))] * 1000, 2)


async def probe(port: int, samples: int, gap: float) -> list[float]:
    """``samples`` timings of ``GET /api/options``, one at a time, ``gap`` seconds apart."""
    connection = await Connection.open(port)
    timings = []
    try:
        for _ in range(samples):
            started = time.perf_counter()
            try:
                status, _ = await connection.request("GET", "/api/options")
            except (ConnectionError, asyncio.IncompleteReadError):
                connection.reconnect(await Connection.open(port))
                continue
            if status != 200:
                raise RuntimeError(f"GET /api/options answered {status}")
            timings.append(time.perf_counter() - started)
            await asyncio.sleep(gap)
    finally:
        connection.close()
    return timings


class Person:
    """One room's person: plays a random legal move whenever it is their turn; a finished game is replaced."""

    def __init__(self, port: int, bots: int, bot: str, rng: random.Random, stats: Stats) -> None:
        self.port = port
        self.bots = bots
        self.bot = bot
        self.rng = rng
        self.stats = stats
        self.bot_moves = 0
        self.moves = 0
        self.games = 0

    async def run(self, index: int) -> None:
        """Play room after room until cancelled."""
        connection = await Connection.open(self.port)
        try:
            while True:
                seats = [{"name": f"p{index}"}] + [{"name": f"b{index}x{i}", "bot": self.bot} for i in range(self.bots)]
                try:
                    status, room = await connection.request(
                        "POST", "/api/rooms", {"preset": "standard", "seats": seats}
                    )
                except (ConnectionError, asyncio.IncompleteReadError):
                    connection.reconnect(await Connection.open(self.port))
                    continue
                if status != 201:
                    self.stats.problems.append(f"making a room answered {status}: {room}")
                    return
                token = room["seats"][0]["link"].split("#", 1)[1]
                await self.play(connection, token)
                self.games += 1
        except asyncio.CancelledError:
            raise
        except Exception as error:  # a failure is a finding
            self.stats.problems.append(f"person {index} failed: {error!r}")
        finally:
            connection.close()

    async def play(self, connection: Connection, token: str) -> None:
        """Follow the seat's event stream, as the page does, and move whenever it is the person's turn.

        Counts the actions played by the bots (and chance): each table's version, less the person's moves.
        """
        stream = await Connection.open(self.port)
        seen = 0
        try:
            await stream.send("GET", "/api/events", token=token)
            status, _ = await stream.head()
            if status != 200:
                raise RuntimeError(f"GET /api/events answered {status}")
            buffer = b""
            async for chunk in stream.chunks():
                buffer += chunk
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    data = [line[6:] for line in block.split(b"\n") if line.startswith(b"data: ")]
                    if not data:
                        continue
                    table = json.loads(b"\n".join(data))
                    if table["version"] <= seen:
                        continue
                    self.bot_moves += table["version"] - seen
                    seen = table["version"]
                    if table["waiting"] in ("over", "truncated"):
                        return
                    if table["legal"]:
                        body = {"version": table["version"], "action": self.rng.choice(table["legal"])["action"]}
                        try:
                            status, _ = await connection.request("POST", "/api/move", body, token)
                        except (ConnectionError, asyncio.IncompleteReadError):
                            # Idle past the keep-alive timeout while the bots played: a new connection, the
                            # same move (its version makes the retry safe).
                            connection.reconnect(await Connection.open(self.port))
                            status, _ = await connection.request("POST", "/api/move", body, token)
                        if status not in (200, 409):
                            raise RuntimeError(f"POST /api/move answered {status}")
                        if status == 200:
                            self.bot_moves -= 1  # the person's own move is not the bots'
                            self.moves += 1
        finally:
            stream.close()


async def measure_latency(args: argparse.Namespace, port: int, process: subprocess.Popen[bytes]) -> dict[str, Any]:
    """Idle, then busy: the probe's timings, and the bots' moves made while it ran."""
    await wait_for_server(port, process)
    idle = await probe(port, args.samples, args.gap)
    stats = Stats()
    rng = random.Random(args.seed)
    people = [Person(port, args.bots, args.bot, random.Random(rng.getrandbits(64)), stats) for _ in range(args.rooms)]
    tasks = [asyncio.create_task(person.run(index)) for index, person in enumerate(people)]
    await asyncio.sleep(args.warm_up)  # the rooms are made and their bots at work
    moves_before = sum(person.bot_moves for person in people)
    started = time.perf_counter()
    busy = await probe(port, args.samples, args.gap)
    elapsed = time.perf_counter() - started
    moves = sum(person.bot_moves for person in people) - moves_before
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "idle_ms_p50": percentile(idle, 0.5),
        "idle_ms_p95": percentile(idle, 0.95),
        "idle_ms_max": percentile(idle, 1.0),
        "busy_ms_p50": percentile(busy, 0.5),
        "busy_ms_p95": percentile(busy, 0.95),
        "busy_ms_max": percentile(busy, 1.0),
        "samples": [len(idle), len(busy)],
        "bot_moves_while_busy": moves,
        "bot_moves_per_second": round(moves / elapsed, 1),
        "games_finished": sum(person.games for person in people),
        "problems": stats.problems,
    }


def serve_command(port: int, store: str, rooms: int, extra: list[str]) -> list[str]:
    """The ``cheekymonkey serve`` command line for a run, its limits out of the way of ``rooms`` rooms."""
    command = [sys.executable, "-m", "cheekymonkey", "serve", "--port", str(port), "--bot-delay", "0"]
    command += ["--store", store, "--max-rooms", str(10**6), "--rooms-per-client", str(10**6)]
    # Every client of the run is 127.0.0.1: the streams it holds stay under the three quarters of --max-streams
    # that a client holding some may fill, and its budget of work is out of the way.
    command += ["--rooms-per-minute", str(10**6), "--max-streams", str(4 * (2 * rooms + 10))]
    command += ["--streams-per-client", str(2 * rooms + 10)]
    command += ["--request-burst", str(10**9), "--request-rate", str(10**9)]
    return command + extra


def run_latency(args: argparse.Namespace) -> dict[str, Any]:
    """The latency runs, one server per way of running the bots, one after the other."""
    report: dict[str, Any] = {
        "rooms": args.rooms,
        "bots_per_room": args.bots,
        "bot": args.bot,
        "load_average_before": os.getloadavg()[0],
        "runs": {},
    }
    for workers in args.workers:
        port = free_port()
        with tempfile.TemporaryDirectory() as folder:
            command = serve_command(port, os.path.join(folder, "rooms.sqlite3"), args.rooms, [])
            command += ["--bot-workers", str(workers), "--max-moves", "100000"]
            server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            try:
                run = asyncio.run(measure_latency(args, port, server))
            finally:
                stop(server)
        idle, busy = run["idle_ms_p95"], run["busy_ms_p95"]
        run["p95_busy_over_idle"] = round(busy / idle, 2) if idle and busy else None
        report["runs"][f"bot_workers_{workers}"] = run
    report["load_average_after"] = os.getloadavg()[0]
    report["problems"] = [p for run in report["runs"].values() for p in run["problems"]]
    return report


def print_latency(report: dict[str, Any]) -> None:
    print(f"{report['rooms']} rooms of 1 person and {report['bots_per_room']} {report['bot']} bots; "
          f"load average {report['load_average_before']} before, {report['load_average_after']} after")  # fmt: skip
    print(f"{'GET /api/options, ms':<26}{'idle p50':>10}{'idle p95':>10}{'busy p50':>10}{'busy p95':>10}"
          f"{'busy max':>10}{'p95 ratio':>11}{'bot moves/s':>13}")  # fmt: skip
    for name, run in report["runs"].items():
        print(f"{name:<26}{run['idle_ms_p50']:>10}{run['idle_ms_p95']:>10}{run['busy_ms_p50']:>10}"
              f"{run['busy_ms_p95']:>10}{run['busy_ms_max']:>10}{run['p95_busy_over_idle']:>11}"
              f"{run['bot_moves_per_second']:>13}")  # fmt: skip
    print(f"problems: {len(report['problems'])}")
    for problem in report["problems"][:20]:
        print(f"  {problem}")


def stop(server: subprocess.Popen[bytes]) -> None:
    """Stop a server process (SIGTERM, then SIGKILL after 10 seconds)."""
    server.terminate()
    with contextlib.suppress(subprocess.TimeoutExpired):
        server.communicate(timeout=10)
    if server.poll() is None:
        server.kill()
        server.communicate()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=None, help="rooms (default 100 games; 8 with --latency)")
    parser.add_argument("--bot", default=None, help="the bots' kind (default heuristic; mcts with --latency)")
    parser.add_argument("--seed", type=int, default=1, help="seed for the clients' choices (default 1)")
    parser.add_argument("--store", default=None, help="the server's --store (default: a file in a temporary folder)")
    parser.add_argument("--json", action="store_true", help="print one JSON line instead of a report")
    latency = parser.add_argument_group("latency beside bots")
    latency.add_argument("--latency", action="store_true", help="measure GET /api/options idle and beside bots")
    latency.add_argument("--bots", type=int, default=5, help="bots per room (default 5)")
    latency.add_argument(
        "--workers",
        type=lambda text: [int(part) for part in text.split(",")],
        default=[0, 1],
        help="the servers' --bot-workers, one run each (default 0,1: a thread, then one worker process)",
    )
    latency.add_argument("--samples", type=int, default=400, help="requests timed per phase (default 400)")
    latency.add_argument("--gap", type=float, default=0.02, help="seconds between two timed requests (default 0.02)")
    latency.add_argument("--warm-up", type=float, default=2.0, help="seconds the bots play before timing (default 2)")
    args = parser.parse_args(argv)
    if args.latency:
        args.rooms = 8 if args.rooms is None else args.rooms
        args.bot = args.bot or "mcts"
        report = run_latency(args)
        if args.json:
            print(json.dumps(report))
        else:
            print_latency(report)
        return 1 if report["problems"] else 0
    args.rooms = 100 if args.rooms is None else args.rooms
    args.bot = args.bot or "heuristic"
    # Four sockets a room on each side: lift the open-file limit as far as this process may.
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        store = args.store or os.path.join(folder, "rooms.sqlite3")
        server = subprocess.Popen(
            serve_command(port, store, args.rooms, []), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        try:
            asyncio.run(wait_for_server(port, server))
            report = asyncio.run(run(args.rooms, args.bot, args.seed, server.pid, port))
        finally:
            stop(server)
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            if key != "problems":
                print(f"{key:>24}: {value}")
        print(f"{'problems':>24}: {len(report['problems'])}")
        for problem in report["problems"][:20]:
            print(f"  {problem}")
    return 1 if report["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
