"""Crash durability and graceful shutdown, on SQLite and on PostgreSQL.

- kill -9 under a write load (sign-ups and generated workouts from several clients at once): after a restart on the
  same data every write the server acknowledged with 2xx is there, and SQLite's `PRAGMA integrity_check` says ok.
- SIGTERM under a read and write load: the process exits 0 within a deadline; no answer is a 5xx other than 503, every
  503 carries `Retry-After`, every request sent a second or more before the signal is answered, and every
  acknowledged write is there after a restart.
"""
import os
import signal
import sqlite3
import threading
import time

from common import Client, Server, request, unique, wait_until

PASSWORD = "lifting-heavy-things-daily"
WORKOUT_REQUEST = {"muscles": ["quadriceps"], "equipment": [], "level": "beginner", "minutes": 10}


class Load:
    """Clients that sign people up, generate workouts and read over kept-alive connections, recording every
    acknowledged write."""

    def __init__(self, base, key, threads=4, reads=False):
        self.base, self.key, self.threads, self.reads = base, key, threads, reads
        self.acked = []          # ("account", email) or ("workout", host user, workout id)
        self.bad = []            # answers a correct server never gives
        self.dropped = []        # requests sent before `signalled_at` that got no answer
        self.statuses = {}
        self.signalled_at = None
        self.stopping = threading.Event()
        self.lock = threading.Lock()
        self.workers = [threading.Thread(target=self.work, args=(n,), daemon=True) for n in range(threads)]

    def start(self):
        for worker in self.workers:
            worker.start()
        return self

    def stop(self):
        self.stopping.set()
        for worker in self.workers:
            worker.join(60)

    def work(self, number):
        user = unique(f"load{number}")
        host = {"X-Forma-Key": self.key, "X-Forma-User": user}
        client = Client(self.base, timeout=60)
        step = 0
        while not self.stopping.is_set():
            step += 1
            kind = ("account", "workout", "read")[step % (3 if self.reads else 2)]
            began = time.time()
            try:
                if kind == "account":
                    email = f"{unique('durable')}@example.com"
                    body = {"email": email, "password": PASSWORD, "passwordConfirmation": PASSWORD}
                    reply = client.send("POST", "/v1/accounts", None, body)
                    record = ("account", email)
                elif kind == "workout":
                    reply = client.send("POST", "/v1/workouts/generate", host, WORKOUT_REQUEST)
                    record = ("workout", user, reply.json()["id"] if reply.status == 201 else None)
                else:
                    reply = client.send("GET", "/v1/exercises?muscle=chest&perPage=5", host)
                    record = None
            except OSError as error:
                signalled = self.signalled_at
                # Sent a second or more before the signal: surely accepted, so in flight when it came.
                if signalled is not None and began < signalled - 1 and not isinstance(error, ConnectionRefusedError):
                    with self.lock:
                        self.dropped.append(f"{kind} sent {signalled - began:.2f} s before the signal: {error!r}")
                if signalled is None:  # a kill -9: nothing more will answer
                    time.sleep(0.05)
                continue
            with self.lock:
                self.statuses[reply.status] = self.statuses.get(reply.status, 0) + 1
                if 200 <= reply.status < 300 and record is not None:
                    self.acked.append(record)
                elif reply.status >= 500 and (reply.status != 503 or "retry-after" not in reply.headers):
                    self.bad.append(f"{kind}: {reply.status} {reply.headers.get('retry-after')} {reply.body[:200]!r}")


def missing_writes(server, key, acked):
    missing = []
    for record in acked:
        if record[0] == "account":
            reply = request(server.base, "POST", "/v1/login", None, {"email": record[1], "password": PASSWORD})
            if reply.status == 429:  # sign-ins from one address are throttled: a second sign-up must find it taken
                body = {"email": record[1], "password": PASSWORD, "passwordConfirmation": PASSWORD}
                reply = request(server.base, "POST", "/v1/accounts", None, body)
                present = reply.status == 409
            else:
                present = reply.status == 200
        else:
            reply = request(server.base, "GET", f"/v1/workouts/{record[2]}",
                            {"X-Forma-Key": key, "X-Forma-User": record[1]})
            present = reply.status == 200
        if not present:
            missing.append(f"{record}: {reply}")
    return missing


def integrity(data_dir):
    database = sqlite3.connect(os.path.join(data_dir, "forma.sqlite"))
    try:
        return database.execute("PRAGMA integrity_check").fetchall()
    finally:
        database.close()


def prepared(binary, work, name, database_url):
    server = Server(binary, work, name, database_url=database_url)
    server.cli("migrate")
    return server, server.create_company(unique("Durable"))


def kill9_under_load(binary, work, name, database_url=None, writes=120):
    server, key = prepared(binary, work, name, database_url)
    try:
        server.start()
        load = Load(server.base, key).start()
        wait_until(lambda: len(load.acked) >= writes, 120, f"{writes} acknowledged writes")
        server.kill9()
        load.stop()
        assert load.acked, "no write was acknowledged before the kill"
        if database_url is None:
            checked = integrity(server.data_dir)
            assert checked == [("ok",)], f"PRAGMA integrity_check after kill -9: {checked}"
        server.start()
        missing = missing_writes(server, key, load.acked)
        assert not missing, f"{len(missing)} of {len(load.acked)} acknowledged writes lost: {missing[:5]}"
        assert not load.bad, f"answers before the kill: {load.bad[:5]}"
    finally:
        server.stop()


def sigterm_under_load(binary, work, name, database_url=None, writes=20, deadline=60):
    server, key = prepared(binary, work, name, database_url)
    try:
        server.start()
        load = Load(server.base, key, threads=6, reads=True).start()
        wait_until(lambda: len(load.acked) >= writes, 120, f"{writes} acknowledged writes")
        load.signalled_at = time.time()
        server.process.send_signal(signal.SIGTERM)
        try:
            code = server.process.wait(deadline)
        except Exception:  # noqa: BLE001 - still running after the deadline
            code = None
        load.stop()
        problems = []
        if code != 0:
            problems.append(f"exit status {code} (wanted 0 within {deadline} s): {server.log_errors()}")
        if load.bad:
            problems.append(f"{len(load.bad)} bad answers, e.g. {load.bad[:3]}")
        if load.dropped:
            problems.append(f"{len(load.dropped)} in-flight requests got no answer, e.g. {load.dropped[:3]}")
        if server.alive():
            server.process.kill()
            server.process.wait(10)
        server.start()
        missing = missing_writes(server, key, load.acked)
        if missing:
            problems.append(f"{len(missing)} of {len(load.acked)} acknowledged writes lost: {missing[:3]}")
        assert not problems, f"statuses {load.statuses}; " + "; ".join(problems)
    finally:
        server.stop()


def run(results, binary, work, postgres):
    results.run("durability_kill9_sqlite", kill9_under_load, binary, work, "kill9-sqlite")
    results.run("durability_sigterm_sqlite", sigterm_under_load, binary, work, "sigterm-sqlite")
    if postgres is None:
        for name in ("durability_kill9_postgres", "durability_sigterm_postgres"):
            results.fail(name, time.time(), "no PostgreSQL server given (--postgres or FORMA_PROBE_POSTGRES)")
        return
    results.run("durability_kill9_postgres", kill9_under_load, binary, work, "kill9-postgres",
                postgres.create("forma_probe_kill"))
    results.run("durability_sigterm_postgres", sigterm_under_load, binary, work, "sigterm-postgres",
                postgres.create("forma_probe_term"))
