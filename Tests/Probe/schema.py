"""Schemathesis against openapi.yaml on a running server, with a user token (and the company's key) and without.

Bounded: a fixed seed, a cap of examples per operation and a time budget per run. A run fails on any 5xx, any answer
outside the contract's schemas, content types or required headers, and any status the contract does not list. The
server must still answer its health check afterwards.
"""
import os
import re
import subprocess
import sys

from common import bearer, request, session_token, unique
from tenancy import Contract

CHECKS = ",".join(["not_a_server_error", "status_code_conformance", "content_type_conformance",
                   "response_headers_conformance", "response_schema_conformance"])
# These end the identity the run is using; the tenancy and server suites test them.
DESTRUCTIVE = ["deleteAccount", "logout"]


def schemathesis(spec_path, base, headers, seconds, examples, report):
    # One worker: with two, hypothesis' ast.parse calls race in CPython 3.11 (Debian's python3) and fail with
    # "SystemError: AST constructor recursion depth mismatch" (python/cpython#106905), a failure of the tool, not
    # of the server.
    binary = os.path.join(os.path.dirname(sys.executable), "schemathesis")
    command = [binary, "run", os.path.abspath(spec_path), "--url", base, "--checks", CHECKS,
               "--phases", "examples,coverage,fuzzing",
               "--max-examples", str(examples), "--max-time", str(seconds), "--seed", "20261125", "--workers", "1",
               "--request-timeout", "30", "--no-shrink", "--suppress-health-check", "all", "--warnings", "off",
               "--report", "junit", "--report-junit-path", report]
    for operation in DESTRUCTIVE:
        command += ["--exclude-operation-id", operation]
    for name, value in headers.items():
        command += ["--header", f"{name}: {value}"]
    env = dict(os.environ, NO_COLOR="1")
    # Run in the report's directory: schemathesis keeps a cache of past failures in its working directory and would
    # replay them in later runs, so a run would depend on the ones before it.
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=seconds * 3 + 120,
                          cwd=os.path.dirname(report))


def check_run(server, spec_path, work, label, headers, seconds, examples):
    directory = os.path.join(work, f"schemathesis-{label}")
    os.makedirs(directory, exist_ok=True)
    done = schemathesis(spec_path, server.base, headers, seconds, examples, os.path.join(directory, "junit.xml"))
    output = done.stdout + done.stderr
    with open(os.path.join(directory, "output.log"), "w") as log:
        log.write(output)
    alive = server.alive() and request(server.base, "GET", "/v1/health", timeout=10).status == 200
    if done.returncode != 0 or not alive:
        print(output[-12000:], file=sys.stderr, flush=True)
        crash = "" if alive else f"; server log: {server.log_errors()}"
        raise AssertionError(f"schemathesis exited {done.returncode}; server alive: {alive}; "
                             f"{'; '.join(failures(output)) or output[-600:]}{crash}")


def failures(output):
    """One line per failing operation: `GET /v1/x: ST103 Undocumented status code (Received: 400)`."""
    found, operation = [], None
    for line in output.splitlines():
        header = re.fullmatch(r"_+ ([A-Z]+ /\S*) _+", line.strip())
        if header:
            operation = header.group(1)
        elif operation and re.match(r"- [A-Z]{2}\d+ |- Server error|- Network", line.strip()):
            found.append(f"{operation}: {line.strip()[2:]}")
        elif operation and found and line.strip().startswith("Received:") and found[-1].startswith(operation):
            found[-1] += f" ({line.strip()})"
        elif line.startswith("=") and "SUMMARY" in line:
            break
    return found


# Integers at and past the edges of 64 bits, where arithmetic on them overflows (schemathesis draws few of these).
EXTREME_INTEGERS = ["9223372036854775807", "9223372036854775808", "-9223372036854775808", "4611686018427387904",
                    "99999999999999999999", "-1", "0"]


def extreme_integers(server, spec_path, headers):
    """Every integer query parameter of the contract at each extreme value: no 5xx, only listed statuses, and the
    server still up."""
    contract = Contract(spec_path)
    problems, sent = [], 0
    for method, path, operation, parameters in contract.operations():
        required = contract.query_for(parameters)
        if "{" in path or required is None:
            continue
        for parameter in parameters:
            if parameter.get("in") != "query" or parameter.get("schema", {}).get("type") != "integer":
                continue
            for value in EXTREME_INTEGERS:
                query = [part for part in required.lstrip("?").split("&") if part and
                         not part.startswith(parameter["name"] + "=")] + [f"{parameter['name']}={value}"]
                target = f"{path}?{'&'.join(query)}"
                try:
                    reply = request(server.base, method, target, headers, {} if method != "GET" else None)
                except OSError as error:
                    problems.append(f"{method} {target}: no answer ({error!r})")
                    try:  # a crashing server may take a while to print its backtrace and exit
                        server.process.wait(30)
                    except subprocess.TimeoutExpired:
                        pass
                    if not server.alive():
                        raise AssertionError(f"{method} {target} killed the server: {server.log_errors()}")
                    continue
                sent += 1
                if reply.status >= 500 or str(reply.status) not in operation["responses"]:
                    problems.append(f"{method} {target}: {reply.status} (listed: {', '.join(operation['responses'])})")
    alive = server.alive()
    assert sent and alive and not problems, (f"server alive: {alive}; {len(problems)} problems: "
                                             f"{'; '.join(problems[:6])}; server log: {server.log_errors()}")


def run(results, server, spec_path, work, seconds, examples):
    key = server.create_company(unique("Schemathesis"))
    token = session_token(server.base, key, unique("fuzz"))
    results.run("schema_extreme_integers", extreme_integers, server, spec_path, {**bearer(token), "X-Forma-Key": key})
    if not server.alive():  # the next runs need a server
        server.start()
    results.run("schemathesis_with_token", check_run, server, spec_path, work, "token",
                {**bearer(token), "X-Forma-Key": key}, seconds, examples)
    results.run("schemathesis_without_token", check_run, server, spec_path, work, "anonymous", {}, seconds, examples)
