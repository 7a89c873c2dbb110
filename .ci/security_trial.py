"""The web server's security trial, re-run: each finding of the first trial tried again on loopback.

Every check starts a real ``cheekymonkey serve`` (``python -m cheekymonkey serve``) on a free port of
127.0.0.1, or the terminal's ``play``, and sends what the first trial sent. It prints, for each finding, what
was sent, what came back and whether that holds now, as a Markdown table, and exits 1 if anything still gets
through. Run it from the repository's root (it needs the web and redis extras, and redis-server):

    python .ci/security_trial.py            # about two minutes: the sweep's log line waits for its minute
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.web_support import (  # noqa: E402 - after the path
    ServeProcess,
    call,
    free_port,
    open_stream,
    read_event,
    redis_server,
    serve_process,
    token_of,
)

RESULTS: list[tuple[str, str, str, bool]] = []
TMM = "too-many-monkeys"
ACTION = {"format": f"{TMM}/1", "kind": "action"}


def note(finding: str, sent: str, back: str, holds: bool) -> None:
    """Record one finding's re-run, and say it at once."""
    RESULTS.append((finding, sent, back, holds))
    print(("ok   " if holds else "FAIL ") + finding + ": " + back, flush=True)


def tmm_room(
    server: ServeProcess | str, names: list[str], bots: dict[int, str] | None = None, seed: int | None = None
) -> Any:
    """A Too Many Monkeys room of people (and ``bots``: seat -> kind); the server's answer."""
    seats = [{"name": n, **({"bot": bots[i]} if bots and i in bots else {})} for i, n in enumerate(names)]
    body = {"game": TMM, "preset": "standard", "seats": seats, **({"seed": seed} if seed is not None else {})}
    status, answer = call(server, "POST", "/api/rooms", body)
    assert status == 201, answer
    return answer


def table_of(server: ServeProcess, token: str) -> dict[str, Any]:
    """The table as the seat of ``token`` sees it."""
    status, answer = call(server, "GET", "/api/table", token=token)
    assert status == 200, answer
    assert isinstance(answer, dict)
    return answer


# -- the critical finding: a seat chose the cards drawn and played other seats' moves -------------------------


def critical() -> None:
    """The critical finding: texts and documents that settle chance or play for other seats."""
    with serve_process(["--store", ":memory:", "--allow-seeds", "--bot-delay", "0"]) as server:
        # A seed whose first decision is a turn's start, where "d" alone is the seat's own legal move.
        for seed in range(50):
            room = tmm_room(server, ["Ann", "Bob", "Cy"], seed=seed)
            tokens = [token_of(room, seat) for seat in range(3)]
            mover = table_of(server, tokens[0])["to_move"]
            if "d" in [item["text"] for item in table_of(server, tokens[mover])["legal"]]:
                break
        texts = ["d; g; d; n; g", "d; g", "d, e", "d; 1", "d;w", "d; g; e", "d ;g", "d;;g", "draw; giraffe", "d; 6"]
        answers = []
        for text in texts:
            before = table_of(server, tokens[mover])["version"]
            status, answer = call(server, "POST", "/api/move", {"version": before, "text": text}, token=tokens[mover])
            after = table_of(server, tokens[mover])["version"]
            answers.append((text, status, before == after, answer.get("error", "")))
        held = all(400 <= status < 500 and same for _, status, same, _ in answers)
        note(
            "Critical: text naming the card drawn and later seats' moves",
            f"POST /api/move from the seat to move, texts {texts!r}",
            f"statuses {sorted({s for _, s, _, _ in answers})}, version unchanged for all: "
            f"{all(same for _, _, same, _ in answers)}; e.g. {answers[0][3]!r}, {answers[1][3]!r}",
            held,
        )
        table = table_of(server, tokens[mover])
        other = (mover + 1) % 3
        documents = [
            ("a chance outcome (the card drawn)", {**ACTION, "type": "reveal", "card": "giraffe"}),
            ("another seat's move", {**ACTION, "type": "draw"}),
        ]  # fmt: skip
        results = []
        for what, document in documents:
            token = tokens[mover] if what.startswith("a chance") else tokens[other]
            status, answer = call(
                server, "POST", "/api/move", {"version": table["version"], "action": document}, token=token
            )
            results.append((what, status, answer.get("error", "")))
        same = table_of(server, tokens[mover])["version"] == table["version"]
        note(
            "Critical: an action document that is a chance outcome or another seat's action",
            "POST /api/move with a reveal document from the seat to move; a draw from the seat not to move",
            "; ".join(f"{what}: {status} {error!r}" for what, status, error in results)
            + f"; version unchanged: {same}",
            all(status in (400, 409) for _, status, _ in results) and same,
        )
        for seed in range(50):
            bot_room = tmm_room(server, ["Ann", "Bot"], bots={1: "expectimax"}, seed=seed)
            token = token_of(bot_room, 0)
            table = table_of(server, token)
            while table["to_move"] != 0 and table["waiting"] != "over":  # the bot may move first
                time.sleep(0.05)
                table = table_of(server, token)
            if "d" in [item["text"] for item in table["legal"]]:
                break
        status, answer = call(
            server, "POST", "/api/move", {"version": table["version"], "text": "d; g; e"}, token=token
        )
        note(
            "Critical: making the expectimax bot draw an elephant",
            "POST /api/move {text: 'd; g; e'} at the person's turn in a room with an expectimax bot",
            f"{status} {answer.get('error', '')!r}; version {table_of(server, token)['version']} "
            f"(was {table['version']})",
            400 <= status < 500 and table_of(server, token)["version"] == table["version"],
        )
    for seed in range(50):  # a seed whose first prompt is a turn's start, where 'd' alone is legal
        done = subprocess.run(
            [sys.executable, "-m", "cheekymonkey", "play", "--game", TMM, "--seed", str(seed), "--bots", "random",
             "--no-record"],
            input="d; g\nq\n", capture_output=True, text=True, timeout=120, check=False, cwd=ROOT,
        )  # fmt: skip
        refused = [line for line in done.stdout.splitlines() if line.startswith("'d; g'")]
        if refused and "wild" not in refused[0]:
            break
    note(
        "Critical: the same text at the terminal's prompt",
        f"cheekymonkey play --game too-many-monkeys --seed {seed}, answer 'd; g'",
        f"exit {done.returncode}; {refused[0] if refused else 'no refusal line'!r}",
        bool(refused) and "You draw a giraffe" not in done.stdout,
    )


# -- the store --------------------------------------------------------------------------------------------------


def two_rooms(path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two rooms of two people in the SQLite file ``path``, each a move in."""
    with serve_process(["--store", str(path), "--allow-seeds", "--bot-delay", "0"]) as server:
        rooms = [tmm_room(server, ["Ann", "Bob"], seed=seed) for seed in (3, 4)]
        for room in rooms:
            mover = table_of(server, token_of(room, 0))["to_move"]
            table = table_of(server, token_of(room, mover))
            body = {"version": table["version"], "action": table["legal"][0]["action"]}
            status, _ = call(server, "POST", "/api/move", body, token=token_of(room, mover))
            assert status == 200
    return rooms[0], rooms[1]


def store(folder: Path) -> None:
    """The store's findings: a damaged row, the sweep's log line, damaged and read-only files."""
    path = folder / "rooms.sqlite3"
    bad, good = two_rooms(path)
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("UPDATE actions SET action = '{not json' WHERE room = ? AND number = 1", (bad["room"],))
        db.commit()
    log = folder / "damaged.log"
    with serve_process(["--store", str(path), "--idle-minutes", "0.01"], stderr=log) as server:
        bad_status, bad_answer = call(server, "GET", "/api/table", token=token_of(bad, 0))
        good_status, _ = call(server, "GET", "/api/table", token=token_of(good, 0))
        text = log.read_text()
        naming = [line for line in text.splitlines() if bad["room"] in line]
        note(
            "1. One damaged actions row stops the whole server",
            "an actions row set to '{not json', then serve started on the file",
            f"server up; damaged room {bad_status} {bad_answer.get('error', '')!r}; other room {good_status}; "
            f"log lines naming it: {len(naming)}; traceback: {'Traceback' in text}",
            bad_status == 410 and good_status == 200 and len(naming) == 1 and "Traceback" not in text,
        )
        # The sweep runs once a minute: the rooms idle for 0.6 s are ended by it, each with a log line.
        deadline = time.monotonic() + 100
        while time.monotonic() < deadline and "deleted from the store" not in log.read_text():
            time.sleep(1)
        swept = [line for line in log.read_text().splitlines() if "deleted from the store" in line]
        note(
            "1. A room that cannot be rebuilt is deleted by the sweep with no log line",
            "the same server, --idle-minutes 0.01, waited for its sweep (once a minute)",
            "; ".join(line.split(": ", 1)[-1][:160] for line in swept) or "no log line",
            any(bad["room"] in line and "damaged" in line for line in swept),
        )
    flipped = folder / "flipped.sqlite3"
    two_rooms(flipped)
    data = bytearray(flipped.read_bytes())
    for offset in range(4096 + 8, 4096 + 200):
        data[offset] ^= 0x5A
    flipped.write_bytes(bytes(data))
    readonly = folder / "readonly.sqlite3"
    two_rooms(readonly)
    readonly.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    for what, target in (("flipped bytes", flipped), ("a read-only file", readonly)):
        command = [sys.executable, "-m", "cheekymonkey", "serve", "--port", str(free_port()), "--store", str(target)]
        if what == "a read-only file" and os.geteuid() == 0:
            # Root writes a file whatever its mode: the file is made immutable instead (as the store's tests do).
            subprocess.run(["chattr", "+i", str(target)], check=True)
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False, cwd=ROOT)
        finally:
            if what == "a read-only file" and os.geteuid() == 0:
                subprocess.run(["chattr", "-i", str(target)], check=True)
        lines = done.stderr.strip().splitlines()
        note(
            f"1. A database with {what}",
            f"cheekymonkey serve --store {target.name}",
            f"exit {done.returncode}; stderr {len(lines)} line(s): {lines[-1][:160] if lines else ''!r}",
            done.returncode != 0 and len(lines) == 1 and "Traceback" not in done.stderr,
        )


# -- limits ----------------------------------------------------------------------------------------------------


def limits() -> None:
    """The limits' findings: X-Forwarded-For, streams per client, and Redis across processes."""
    with serve_process(["--store", ":memory:"]) as server:
        statuses = []
        for number in range(14):
            body = {"game": TMM, "preset": "standard", "seats": [{"name": "Ann"}, {"name": "Bob"}]}
            status, _ = call(server, "POST", "/api/rooms", body, headers={"X-Forwarded-For": f"10.0.0.{number + 1}"})
            statuses.append(status)
        note(
            "2. X-Forwarded-For trusted from 127.0.0.1 by default",
            "14 POST /api/rooms from 127.0.0.1, each with another X-Forwarded-For",
            f"statuses {statuses}",
            statuses.count(201) == 10 and statuses[10:] == [429] * 4,
        )
    with serve_process(["--store", ":memory:", "--rooms-per-minute", "100"]) as server:
        rooms = [tmm_room(server, ["A", "B", "C", "D"]) for _ in range(6)]
        tokens = [token_of(room, seat) for room in rooms for seat in range(4)]
        opened, statuses = [], []
        for token in tokens[:20]:
            connection, response = open_stream(server, token)
            statuses.append(response.status)
            if response.status == 200:
                read_event(response)
                opened.append(connection)
            else:
                connection.close()
        for connection in opened:
            connection.close()
        note(
            "3. Stream slots have no per-client cap",
            "20 event streams from one address, each on another seat",
            f"statuses {statuses}",
            statuses.count(200) == 16 and statuses[16:] == [429] * 4,
        )
    with tempfile.TemporaryDirectory() as folder, redis_server(Path(folder)) as url:
        servers = [ServeProcess(["--store", url]) for _ in range(2)]
        try:
            for server in servers:
                server.wait_ready()
            body = {"game": TMM, "preset": "standard", "seats": [{"name": "A"}, {"name": "B"}]}
            room = call(servers[0], "POST", "/api/rooms", body)[1]  # for the streams, below
            statuses = []
            for number in range(13):
                body = {"game": TMM, "preset": "standard", "seats": [{"name": "Ann"}, {"name": "Bob"}]}
                statuses.append(call(servers[number % 2], "POST", "/api/rooms", body)[0])
            note(
                "4. With Redis, the room rate limit per process",
                "14 POST /api/rooms from one client, alternately to two processes sharing one Redis (the first "
                "one to process 0 alone)",
                f"statuses [201] + {statuses}",
                statuses.count(201) == 9 and statuses[9:] == [429] * 4,
            )
            stream_statuses: list[int] = []
            opened = []
            if "room" in room:
                token = token_of(room, 0)
                for number in range(8):
                    connection, response = open_stream(servers[number % 2], token)
                    stream_statuses.append(response.status)
                    if response.status == 200:
                        read_event(response)
                        opened.append(connection)
                    else:
                        connection.close()
            for connection in opened:
                connection.close()
            note(
                "4. With Redis, streams on one seat per process",
                "8 event streams on one seat, alternately to the two processes",
                f"statuses {stream_statuses or room}",
                stream_statuses.count(200) == 4 and stream_statuses[4:] == [429] * 4,
            )
        finally:
            for server in servers:
                server.stop()


# -- the small ones -----------------------------------------------------------------------------------------------


def raw(port: int, data: bytes) -> bytes:
    """Send ``data`` on a new connection to ``port``; the answer's head (and what came with it)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(data)
        answer = b""
        with contextlib.suppress(TimeoutError):
            while chunk := sock.recv(65536):
                answer += chunk
                if b"\r\n\r\n" in answer:
                    break
        return answer


def small(folder: Path) -> None:
    """The small findings: look-alike hosts and names, the parser's 400s, SIGTERM with a stream open."""
    with serve_process(["--store", ":memory:"]) as server:
        answer = raw(server.port, b"GET /api/options HTTP/1.1\r\nHost: [::1].evil.example\r\nConnection: close\r\n\r\n")
        note(
            "6. Host: [::1].evil.example accepted",
            "GET /api/options with Host: [::1].evil.example",
            answer.split(b"\r\n", 1)[0].decode(),
            answer.startswith(b"HTTP/1.1 400"),
        )
        for name in ("\u028f\u1d0f\u1d1c", "Y0U"):  # small capitals Y, O, U; and a zero
            body = {"game": TMM, "preset": "standard", "seats": [{"name": name}, {"name": "Bob"}]}
            status, answer_json = call(server, "POST", "/api/rooms", body)
            note(
                f"6. Seat name {name!r} (look-alike of 'you')",
                f"POST /api/rooms with a seat named {name!r}",
                f"{status} {answer_json.get('error', '')!r}",
                status == 400,
            )
        parsed = raw(server.port, b"GET /\x01bad HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").decode(errors="replace")
        head = parsed.split("\r\n\r\n", 1)[0]
        howto = (ROOT / "docs" / "howto" / "web-front-end.md").read_text(encoding="utf-8")
        documented = "HTTP parser (h11)" in howto and "400" in howto
        note(
            "6. The HTTP parser's own 400s carry no security headers (asked: the how-to says what a proxy adds)",
            "a request line with a control character",
            f"{head.splitlines()[0]!r}, headers {[line.split(':')[0] for line in head.splitlines()[1:]]}; "
            f"the how-to names the headers a front proxy must add: {documented}",
            head.startswith("HTTP/1.1 400") and documented,
        )
    log = folder / "sigterm.log"
    server = ServeProcess(["--store", ":memory:", "--allow-seeds"], stderr=log)
    server.wait_ready()
    room = tmm_room(server, ["Ann", "Bob"])
    connection, response = open_stream(server, token_of(room, 0))
    read_event(response)
    server.process.send_signal(signal.SIGTERM)
    status = server.process.wait(timeout=30)
    connection.close()
    server.stop()
    text = log.read_text()
    note(
        "6. SIGTERM while an event stream is open logs a traceback",
        "SIGTERM to serve with one event stream open",
        f"exit {status}; traceback in the log: {'Traceback' in text}",
        "Traceback" not in text,
    )


def bots_latency() -> None:
    """Bots beside plain requests: the latency benchmark's side-by-side figures."""
    done = subprocess.run(
        [sys.executable, "benchmarks/web_load.py", "--latency", "--json"],
        capture_output=True, text=True, timeout=900, check=False, cwd=ROOT,
    )  # fmt: skip
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        note("5. Bots slow every request", "python benchmarks/web_load.py --latency --json", done.stderr[-300:], False)
        return
    report = json.loads(lines[-1])
    said = []
    for name, run in report["runs"].items():
        said.append(
            f"{name}: GET /api/options idle p50 {run['idle_ms_p50']} ms, p95 {run['idle_ms_p95']} ms; beside the bots "
            f"p50 {run['busy_ms_p50']} ms, p95 {run['busy_ms_p95']} ms, worst {run['busy_ms_max']} ms "
            f"(p95 busy/idle {run['p95_busy_over_idle']}); bots' actions/s {run['bot_moves_per_second']}"
        )
    note(
        "5. Bots slow every request",
        "python benchmarks/web_load.py --latency --json (8 rooms of 5 MCTS bots, bots in a thread, then a worker)",
        "; ".join(said) + f"; load average before {report['load_average_before']:.1f}",
        not any(run["problems"] for run in report["runs"].values()),
    )


def main() -> int:
    """Every re-run; the table of results; 1 if any finding still gets through."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        folder.chmod(0o755)
        critical()
        limits()
        small(folder)
        store(folder)
        if "--latency" in sys.argv:
            bots_latency()
    print("\n| finding | sent | came back | holds |\n|---|---|---|---|")
    for finding, sent, back, holds in RESULTS:
        cells = [re.sub(r"\s+", " ", cell).replace("|", "\\|") for cell in (finding, sent, back)]
        print(f"| {cells[0]} | {cells[1]} | {cells[2]} | {'yes' if holds else 'NO'} |")
    return 0 if all(holds for *_, holds in RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
