"""What every probe suite shares: a `forma serve` process on a fresh data directory or PostgreSQL database, plain
HTTP requests, companies and people, throw-away PostgreSQL databases, and the CI's result lines."""
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import traceback
import urllib.parse
import uuid


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Reply:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body

    def json(self):
        return json.loads(self.body) if self.body else None

    def __repr__(self):
        return f"{self.status} {self.body[:300]!r}"


def request(base, method, path, headers=None, body=None, timeout=30):
    """One request on its own connection. `body` is JSON-encoded unless it is bytes. Network errors raise OSError."""
    client = Client(base, timeout)
    try:
        return client.send(method, path, headers, body)
    finally:
        client.close()


class Client:
    """Requests over one kept-alive connection, as browsers and proxies send them; reconnects after an error."""

    def __init__(self, base, timeout=30):
        parsed = urllib.parse.urlsplit(base)
        self.host, self.port, self.timeout = parsed.hostname, parsed.port, timeout
        self.connection = None

    def send(self, method, path, headers=None, body=None):
        headers = dict(headers or {})
        if body is not None and not isinstance(body, bytes):
            body = json.dumps(body).encode()
            headers.setdefault("Content-Type", "application/json")
        if self.connection is None:
            self.connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        try:
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
            reply = Reply(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read())
        except (OSError, http.client.HTTPException) as error:
            self.close()
            if isinstance(error, OSError):
                raise
            raise ConnectionError(f"{method} {path}: {error!r}") from error  # closed mid-answer
        if reply.headers.get("connection", "").lower() == "close":
            self.close()
        return reply

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def wait_until(condition, timeout, what, retry_on=()):
    """Calls `condition` until it returns something truthy, which it returns, or fails after `timeout` seconds.
    An exception of a type in `retry_on` counts as "not yet" (a server not listening yet, a page not rendered yet),
    not as a failure; the last one is named when the wait times out."""
    deadline = time.time() + timeout
    last_miss = None
    while True:
        try:
            value = condition()
            if value:
                return value
        except retry_on as miss:
            last_miss = miss
        if time.time() >= deadline:
            break
        time.sleep(0.1)
    detail = ""
    if last_miss is not None:
        first_line = str(last_miss).splitlines()[0] if str(last_miss) else ""
        detail = f" (last: {type(last_miss).__name__}: {first_line})"
    raise AssertionError(f"timed out after {timeout} s waiting for {what}{detail}")


class Server:
    """One `forma serve` on its own port: SQLite in `data_dir`, or PostgreSQL when `database_url` is given."""

    def __init__(self, binary, work, name, data_dir=None, database_url=None, env=None):
        self.binary = os.path.abspath(binary)
        self.name = name
        self.log_path = os.path.join(work, f"{name}.log")
        self.env = dict(os.environ, FORMA_BCRYPT_COST="4", FORMA_LOG_LEVEL="warning", **(env or {}))
        self.env.pop("DATABASE_URL", None)
        self.data_dir = data_dir or os.path.join(work, f"{name}-data")
        self.env["FORMA_DATA_DIR"] = self.data_dir
        if database_url:
            self.env["DATABASE_URL"] = database_url
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = None

    def cli(self, *args):
        done = subprocess.run([self.binary, *args], env=self.env, capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            raise AssertionError(f"forma {' '.join(args)} exited {done.returncode}: {done.stderr[-2000:]}")
        return done.stdout

    def create_company(self, name):
        """A company and its API key, made with the CLI as an operator would."""
        return json.loads(self.cli("company", "create", "--name", name, "--json"))["apiKey"]

    def start(self, timeout=120):
        log = open(self.log_path, "a")
        self.process = subprocess.Popen([self.binary, "serve", "--port", str(self.port)], env=self.env,
                                        stdout=log, stderr=subprocess.STDOUT)

        def healthy():
            if self.process.poll() is not None:
                raise AssertionError(f"{self.name}: forma serve exited with {self.process.returncode}: "
                                     f"{self.log_tail()}")
            return request(self.base, "GET", "/v1/health", timeout=5).status == 200

        try:
            wait_until(healthy, timeout, f"{self.name}: forma serve to become healthy", retry_on=(OSError,))
        except AssertionError as error:
            if self.process.poll() is None:
                raise AssertionError(f"{error}: {self.log_tail()}") from None
            raise
        return self

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def kill9(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)

    def stop(self):
        if self.alive():
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    def log_errors(self, lines=3):
        """The log's first fatal or error lines, else its tail."""
        try:
            found = [line.strip() for line in open(self.log_path, errors="replace")
                     if any(mark in line for mark in ("Fatal error", "runtime failure", "[ ERROR ]", "level=error"))]
        except OSError:
            return "(no log)"
        return " | ".join(found[:lines]) if found else self.log_tail(600)

    def log_tail(self, chars=2000):
        try:
            return open(self.log_path, errors="replace").read()[-chars:]
        except OSError:
            return "(no log)"


def session_token(base, key, user_id):
    reply = request(base, "POST", "/v1/sessions", {"X-Forma-Key": key}, {"userId": user_id})
    assert reply.status == 201, f"POST /v1/sessions for {user_id}: {reply}"
    return reply.json()["token"]


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def unique(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


class Postgres:
    """Creates throw-away databases on a PostgreSQL server (`postgres://user@host:port`) and drops them at the end."""

    def __init__(self, server_url):
        parsed = urllib.parse.urlsplit(server_url)
        self.host, self.port, self.user = parsed.hostname, str(parsed.port or 5432), parsed.username or "postgres"
        self.password = parsed.password
        self.created = []

    def _run(self, tool, name):
        env = dict(os.environ, PGPASSWORD=self.password) if self.password else None
        done = subprocess.run([tool, "-h", self.host, "-p", self.port, "-U", self.user, name],
                              capture_output=True, text=True, env=env, timeout=120)
        if done.returncode != 0:
            raise AssertionError(f"{tool} {name}: {done.stderr.strip()}")

    def create(self, prefix):
        name = f"{prefix}_{uuid.uuid4().hex[:8]}"
        self._run("createdb", name)
        self.created.append(name)
        auth = f"{self.user}:{self.password}" if self.password else self.user
        return f"postgres://{auth}@{self.host}:{self.port}/{name}"

    def drop_all(self):
        for name in self.created:
            try:
                self._run("dropdb", name)
            except AssertionError:
                pass
        self.created = []


class Results:
    """Prints one line per test in the format of the other CI suites and counts them."""

    def __init__(self):
        self.passed = 0
        self.failed = 0

    def run(self, name, test, *args):
        began = time.time()
        try:
            test(*args)
        except Exception as error:  # noqa: BLE001 - every failure is reported, none stops the other tests
            self.fail(name, began, error)
            traceback.print_exc()
        else:
            self.passed += 1
            print(f"✔ Test {name}() passed after {time.time() - began:.3f} seconds.", flush=True)

    def fail(self, name, began, error):
        self.failed += 1
        detail = " ".join(str(error).split())[:1500]
        print(f"✘ Test {name}() failed after {time.time() - began:.3f} seconds: {detail}", flush=True)


class Workspace:
    """A temporary directory removed at the end (kept when KEEP_PROBE_WORK is set, for debugging)."""

    def __init__(self, prefix):
        self.path = tempfile.mkdtemp(prefix=f"forma-probe-{prefix}-")

    def close(self):
        if not os.environ.get("KEEP_PROBE_WORK"):
            shutil.rmtree(self.path, ignore_errors=True)
