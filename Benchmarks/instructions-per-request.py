#!/usr/bin/env python3
"""Server instructions per request, counted by valgrind's callgrind: a measure that does not move with the machine.

Issue 13's goals are throughput ratios measured with wrk (`forma bench http`), which on a shared 2-core machine move
by 20 points or more within minutes. This counts what one request costs the server instead: it starts the given
`forma` binary under `valgrind --tool=callgrind` on a fresh temporary data directory (SQLite), signs up one person
(as `forma bench http` does), and for each endpoint sends W warm-up requests, zeroes callgrind's counters
(`callgrind_control -z`), sends N requests one after another on one keep-alive connection, and dumps the counters
(`callgrind_control -d`). Instructions of every thread of the server (event loops, SQLite's thread pool) are counted;
the client runs outside valgrind and is not. The server's idle instructions (its background work and callgrind's
control requests, measured once over a few seconds with no requests) are subtracted in proportion to the time each
endpoint took.

    Benchmarks/instructions-per-request.py --server .build-release/release/forma [--requests 2000] [--warmup 200]

Builds nothing of Forma. It needs valgrind (Debian package `valgrind`), `objcopy` (binutils) and a C compiler:
valgrind 3.19 (Debian 12) cannot read the DWARF 5 debug information of a Swift 6 release binary, so the binary is run
from a copy without it (`objcopy --strip-debug`, symbols kept); and it crashes when a thread calls sigsuspend with a
mask in read-only memory, as libdispatch's main thread does under Swift's async main, so a ten-line preload
(compiled into the temporary directory) passes the kernel a copy of the mask. Both workarounds are
Benchmarks/callgrind_support.py's, shared with inertial-instructions.py.

The ratio instructions(health) / instructions(endpoint) bounds the throughput ratio wrk can show while the server is
CPU bound (it is not the throughput ratio itself: waits, the number of threads busy and the cost per instruction
differ between endpoints).
"""

import argparse
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid

from callgrind_support import need as need_tool, prepare


def fail(message):
    print(f"instructions-per-request: {message}", file=sys.stderr)
    sys.exit(2)


def need(tool, package):
    return need_tool("instructions-per-request", tool, package)


class Client:
    """One keep-alive HTTP/1.1 connection to the server."""

    def __init__(self, port):
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)

    def send(self, method, path, headers=None, body=None):
        headers = dict(headers or {})
        if body is not None:
            body = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        data = response.read()
        return response.status, data


def wait_for_health(port, server, deadline_seconds=300):
    deadline = time.monotonic() + deadline_seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            fail("the server exited under valgrind; see its log (--keep to keep it)")
        try:
            status, _ = Client(port).send("GET", "/v1/health")
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.5)
    fail(f"the server did not answer /v1/health within {deadline_seconds} s")


def sign_up(client):
    email = f"bench-{uuid.uuid4().hex[:8]}@example.com"
    password = f"bench password {uuid.uuid4()}"
    status, _ = client.send(
        "POST", "/v1/accounts", body={"email": email, "password": password, "passwordConfirmation": password})
    if status != 201:
        fail(f"sign-up answered {status}")
    status, data = client.send("POST", "/v1/login", body={"email": email, "password": password})
    if status != 200:
        fail(f"login answered {status}")
    return json.loads(data)["token"]


def dump_total(pid, directory, before):
    """Dumps callgrind's counters and returns the instructions counted since the last zeroing."""
    subprocess.run(["callgrind_control", "-d", str(pid)], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        dumps = [name for name in os.listdir(directory) if re.fullmatch(rf"callgrind\.out\.{pid}\.\d+", name)]
        new = sorted(set(dumps) - before, key=lambda name: int(name.rsplit(".", 1)[1]))
        for name in new:
            with open(os.path.join(directory, name)) as handle:
                text = handle.read()
            match = re.search(r"^summary: (\d+)", text, re.M)
            if match:
                before.add(name)
                return int(match.group(1))
        time.sleep(0.2)
    fail("callgrind wrote no dump within 60 s")


def zero(pid):
    subprocess.run(["callgrind_control", "-z", str(pid)], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", required=True, help="the forma binary (a release build; it is not built)")
    parser.add_argument("--requests", type=int, default=2000, help="requests counted per endpoint")
    parser.add_argument("--warmup", type=int, default=200, help="requests sent first per endpoint, not counted")
    parser.add_argument("--idle-seconds", type=float, default=5, help="length of the idle measurement")
    parser.add_argument("--port", type=int, default=18_090)
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (log, dumps)")
    args = parser.parse_args()
    if not (os.path.isfile(args.server) and os.access(args.server, os.X_OK)):
        fail(f"--server {args.server} is not an executable file (build one: swift build -c release)")
    if args.requests < 1 or args.warmup < 0:
        fail("--requests must be at least 1 and --warmup at least 0")
    valgrind = need("valgrind", "valgrind")
    need("callgrind_control", "valgrind")

    directory = tempfile.mkdtemp(prefix="forma-instructions-")
    try:
        binary, shim = prepare("instructions-per-request", args.server, directory)
        data = os.path.join(directory, "data")
        os.mkdir(data)
        environment = dict(os.environ)
        environment.pop("DATABASE_URL", None)
        environment.update({"FORMA_DATA_DIR": data, "FORMA_BCRYPT_COST": "4", "LD_PRELOAD": shim})
        log = open(os.path.join(directory, "server.log"), "w")
        server = subprocess.Popen(
            [valgrind, "--tool=callgrind", f"--callgrind-out-file={directory}/callgrind.out.%p",
             binary, "serve", "--port", str(args.port)],
            cwd=directory, env=environment, stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_for_health(args.port, server)
            client = Client(args.port)
            token = sign_up(client)
            bearer = {"Authorization": f"Bearer {token}"}
            endpoints = [
                ("GET /v1/health", "/v1/health", {}),
                ("GET /v1/me", "/v1/me", bearer),
                ("GET /v1/workouts?status=saved", "/v1/workouts?status=saved", bearer),
                ("GET /v1/plans", "/v1/plans", bearer),
            ]
            seen = set()
            zero(server.pid)
            started = time.monotonic()
            time.sleep(args.idle_seconds)
            idle = dump_total(server.pid, directory, seen)
            idle_per_second = idle / (time.monotonic() - started)
            print(f"forma instructions per request: {args.server} under callgrind, SQLite in a fresh temporary "
                  f"directory, {args.warmup} warm-up then {args.requests} counted requests per endpoint, one "
                  f"keep-alive connection, one request at a time")
            print(f"idle: {idle_per_second:,.0f} instructions a second (subtracted per endpoint by its duration)")
            rows = []
            for name, path, headers in endpoints:
                for _ in range(args.warmup):
                    status, _ = client.send("GET", path, headers)
                    if status != 200:
                        fail(f"{name} answered {status} during warm-up")
                zero(server.pid)
                started = time.monotonic()
                for _ in range(args.requests):
                    status, _ = client.send("GET", path, headers)
                    if status != 200:
                        fail(f"{name} answered {status}")
                total = dump_total(server.pid, directory, seen)
                seconds = time.monotonic() - started
                per_request = (total - idle_per_second * seconds) / args.requests
                rows.append((name, per_request, seconds))
            reference = rows[0][1]
            width = max(len(row[0]) for row in rows)
            print(f"{'endpoint':<{width}}  instructions/request  health/endpoint  seconds")
            for name, per_request, seconds in rows:
                print(f"{name:<{width}}  {per_request:>20,.0f}  {100 * reference / per_request:>14.0f} %"
                      f"  {seconds:>7.1f}")
        finally:
            server.terminate()
            try:
                server.wait(timeout=120)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            log.close()
    finally:
        if args.keep:
            print(f"kept {directory}")
        else:
            shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
