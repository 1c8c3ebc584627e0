#!/usr/bin/env python3
"""Probes a built Forma server from outside, as CI does after the browser tests (docs/testing.md):

- schema: schemathesis against openapi.yaml, with a user token and without;
- tenancy: every operation with an id in its path, tried by another person and another company;
- durability: kill -9 and SIGTERM under load, on SQLite and PostgreSQL;
- scaleout: two server processes on one PostgreSQL behave as one.

Prints one line per test (`✔ Test <name>() passed after <s> seconds.` or `✘ Test <name>() failed …`), then
`Probe tests: N passed, N failed`, and exits non-zero when any failed.

Usage: run.py FORMA_BINARY [--postgres postgres://user@host:port] [--only schema,tenancy,durability,scaleout]
The PostgreSQL server (also FORMA_PROBE_POSTGRES) must let the user create databases; each suite creates its own
and drops it at the end.
"""
import argparse
import os
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import durability  # noqa: E402
import scaleout  # noqa: E402
import schema  # noqa: E402
import tenancy  # noqa: E402
from common import Postgres, Results, Server, Workspace  # noqa: E402

SPEC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "openapi.yaml")
SUITES = ["schema", "tenancy", "durability", "scaleout"]


def with_server(binary, work, name, body):
    server = Server(binary, work, name)
    try:
        server.cli("migrate")
        server.start()
        body(server)
    finally:
        server.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--postgres", default=os.environ.get("FORMA_PROBE_POSTGRES"))
    parser.add_argument("--only", default=",".join(SUITES))
    parser.add_argument("--spec", default=SPEC, help="the contract to probe (default: this checkout's openapi.yaml)")
    parser.add_argument("--schemathesis-seconds", type=int, default=75, help="time budget of each schemathesis run")
    parser.add_argument("--examples", type=int, default=25, help="schemathesis examples per operation")
    options = parser.parse_args()
    chosen = options.only.split(",")
    results = Results()
    workspace = Workspace("run")
    postgres = Postgres(options.postgres) if options.postgres else None
    work = workspace.path
    suites = {
        "schema": lambda: with_server(options.binary, work, "schema", lambda server: schema.run(
            results, server, options.spec, work, options.schemathesis_seconds, options.examples)),
        "tenancy": lambda: with_server(options.binary, work, "tenancy",
                                       lambda server: tenancy.run(results, server, options.spec)),
        "durability": lambda: durability.run(results, options.binary, work, postgres),
        "scaleout": lambda: scaleout.run(results, options.binary, work, postgres),
    }
    try:
        for name in SUITES:
            if name not in chosen:
                continue
            began = time.time()
            try:
                suites[name]()
            except Exception as error:  # noqa: BLE001 - a suite that cannot start is one failure, not a crash
                results.fail(f"probe_{name}_setup", began, error)
                traceback.print_exc()
            print(f"({name} took {time.time() - began:.0f} s)", flush=True)
    finally:
        if postgres:
            postgres.drop_all()
        workspace.close()
    print(f"Probe tests: {results.passed} passed, {results.failed} failed", flush=True)
    return 0 if results.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
