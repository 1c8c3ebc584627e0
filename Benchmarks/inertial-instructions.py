#!/usr/bin/env python3
"""Instructions per input sample of the inertial counter, counted by valgrind's callgrind (issue 17: at most 300 at 50 Hz).

For each SPAR set (DATA/spar/sets/*.csv: 50 Hz, with gyroscope) it runs the harness binary under
`valgrind --tool=callgrind`, collecting only inside its non-inlined `measuredAnalysis`, which returns
`InertialAnalyzer().analyze(recording)`; the CSV is decoded outside it. The binary analyses the set twice in one
process and callgrind dumps its counters after each call: "fresh" is the first analysis (a new process: the Swift
runtime's one-time work included), "running" the second (what a long-running app or server pays). Both are divided by
the set's input samples. Then the same for `InertialBenchmark.workload` (10 sets of 10 reps with 60 s of rest, gyroscope
on) at 12.5, 25, 50 and 100 Hz. Prints one line per set, then min / median / 90th percentile / max and the sets above
300. Callgrind counts do not move with the machine's load, so builds can be compared on a busy machine.

    swift build -c release --package-path Benchmarks/InertialInstructions
    Benchmarks/inertial-instructions.py --binary Benchmarks/InertialInstructions/.build/release/InertialInstructions

`dump` instead prints, without valgrind, every SPAR set and the benchmark at the four rates, each with and without its
gyroscope: the count, the estimated period, every repetition's start, end and peak and every bout, as IEEE bit
patterns, so that two builds' dumps are byte-identical exactly when every result is (`cmp`):

    Benchmarks/inertial-instructions.py --binary BINARY dump > dump.txt

Builds nothing: the binary is the release build of Benchmarks/InertialInstructions (FormaMotion's sources symlinked,
so it is the working tree's engine). The data directory defaults to ../shared/data beside the repository; when it is
absent the SPAR figures are skipped, with a message, and only the benchmark is measured. valgrind 3.19's two
workarounds are Benchmarks/callgrind_support.py's.
"""

import argparse
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

from callgrind_support import fail as fail_with, need as need_tool, prepare

SCRIPT = "inertial-instructions"
GOAL = 300
RATES = ["12.5", "25", "50", "100"]


def fail(message):
    fail_with(SCRIPT, message)


def measured_symbol(binary):
    """The mangled name of the harness's `measuredAnalysis` (callgrind's `--dump-after` needs it whole)."""
    nm = need_tool(SCRIPT, "nm", "binutils")
    symbols = subprocess.run([nm, binary], check=True, capture_output=True, text=True).stdout
    names = sorted({line.split()[-1] for line in symbols.splitlines() if "16measuredAnalysis" in line})
    if len(names) != 1:
        fail(f"expected one measuredAnalysis symbol in {binary}, found {names or 'none'}: is it the harness?")
    return names[0]


def count(valgrind, binary, shim, symbol, arguments, directory):
    """Runs two analyses under callgrind; returns (samples, first analysis's instructions, second's)."""
    work = tempfile.mkdtemp(dir=directory)
    environment = dict(os.environ, LD_PRELOAD=shim)
    result = subprocess.run(
        [valgrind, "--tool=callgrind", "--collect-atstart=no", f"--toggle-collect={symbol}",
         f"--dump-after={symbol}", f"--callgrind-out-file={work}/callgrind.out", binary, *arguments, "2"],
        env=environment, capture_output=True, text=True)
    if result.returncode != 0:
        fail(f"{' '.join(arguments)} failed under valgrind:\n{result.stdout}{result.stderr}")
    match = re.search(r"^samples (\d+) ", result.stdout, re.M)
    if not match:
        fail(f"{' '.join(arguments)} printed no sample count: {result.stdout!r}")
    totals = []
    for part in (1, 2):
        with open(f"{work}/callgrind.out.{part}") as handle:
            totals.append(int(re.search(r"^summary: (\d+)", handle.read(), re.M).group(1)))
    shutil.rmtree(work, ignore_errors=True)
    return int(match.group(1)), totals[0], totals[1]


def summary(label, values):
    """min / median / 90th percentile (the ⌈0.9·n⌉-th value in order) / max and how many are above the goal."""
    ordered = sorted(values)
    n = len(ordered)
    median = ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2
    p90 = ordered[-(-9 * n // 10) - 1]
    above = sum(1 for value in ordered if value > GOAL)
    return (f"{label:<8} min {ordered[0]:6.1f}  median {median:6.1f}  p90 {p90:6.1f}  max {ordered[-1]:6.1f}  "
            f"above {GOAL}: {above} of {n}")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", nargs="?", choices=["measure", "dump"], default="measure")
    parser.add_argument("--binary", required=True,
                        help="the harness (swift build -c release --package-path Benchmarks/InertialInstructions)")
    parser.add_argument("--data", default=os.path.normpath(os.path.join(here, "..", "..", "shared", "data")),
                        help="the data directory holding spar/sets (default: ../shared/data beside the repository)")
    parser.add_argument("--sets", default="*", help="only the SPAR sets whose name matches this glob, e.g. 'S3_*'")
    parser.add_argument("--no-benchmark", action="store_true", help="skip the synthetic benchmark")
    parser.add_argument("--jobs", type=int, default=1, help="valgrind runs at once (each is single-threaded)")
    args = parser.parse_args()
    if not (os.path.isfile(args.binary) and os.access(args.binary, os.X_OK)):
        fail(f"--binary {args.binary} is not an executable file "
             "(build it: swift build -c release --package-path Benchmarks/InertialInstructions)")
    if args.jobs < 1:
        fail("--jobs must be at least 1")
    folder = os.path.join(args.data, "spar", "sets")
    files = sorted(glob.glob(os.path.join(folder, f"{args.sets}.csv")))
    if not os.path.isdir(folder):
        print(f"{SCRIPT}: {folder} is absent (the SPAR data set is not there): the SPAR sets are skipped",
              file=sys.stderr)
    elif not files:
        fail(f"no SPAR set in {folder} matches --sets {args.sets!r}")

    if args.mode == "dump":
        # The harness dumps the benchmark alone when the folder is absent.
        sys.stdout.flush()
        sys.exit(subprocess.run([args.binary, "dump", args.data]).returncode)

    if not files and args.no_benchmark:
        fail("nothing to measure: no SPAR sets and --no-benchmark")
    valgrind = need_tool(SCRIPT, "valgrind", "valgrind")
    directory = tempfile.mkdtemp(prefix="forma-inertial-")
    try:
        binary, shim = prepare(SCRIPT, args.binary, directory)
        symbol = measured_symbol(binary)
        jobs = [(os.path.basename(path)[:-4], ["file", path]) for path in files]
        if not args.no_benchmark:
            jobs += [(f"benchmark {rate} Hz", ["bench", rate]) for rate in RATES]
        print(f"instructions per input sample of InertialAnalyzer().analyze, callgrind, {args.binary}")
        print(f"{'recording':<20} {'samples':>7} {'fresh':>7} {'running':>7}")
        rows = {}
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futures = {name: pool.submit(count, valgrind, binary, shim, symbol, arguments, directory)
                       for name, arguments in jobs}
            for name, _ in jobs:
                samples, fresh, running = futures[name].result()
                rows[name] = (samples, fresh / samples, running / samples)
                print(f"{name:<20} {samples:>7} {fresh / samples:>7.1f} {running / samples:>7.1f}", flush=True)
        sets = {name: row for name, row in rows.items() if not name.startswith("benchmark")}
        if sets:
            print(f"SPAR, {len(sets)} sets, per input sample:")
            print("  " + summary("fresh", [row[1] for row in sets.values()]))
            print("  " + summary("running", [row[2] for row in sets.values()]))
            # Every set above the goal when running; the five highest fresh.
            for column, label, shown in ((2, "running", None), (1, "fresh", 5)):
                above = sorted(((row[column], name) for name, row in sets.items() if row[column] > GOAL), reverse=True)
                if above:
                    more = f" (of {len(above)})" if shown is not None and len(above) > shown else ""
                    print(f"  above {GOAL} {label}{more}: "
                          + ", ".join(f"{name} {value:.1f}" for value, name in above[:shown]))
    finally:
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
