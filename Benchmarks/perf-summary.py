#!/usr/bin/env python3
"""Summarises a `perf record -g` of a release `forma serve` (docs/performance.md, "Frames on the event loop").

perf 6.1 cannot read the symbols of a Swift release binary ("cannot get elf header"), so this reads `perf script`
and resolves forma's own addresses with llvm-symbolizer (from the Swift toolchain; `objcopy --strip-debug` of the
binary is enough and faster) and swift-demangle. It prints the share of samples by thread, by library and by function
(self), and, for each regular expression given after the binary, the share of samples with a matching frame anywhere
in their call chain (inclusive).

usage: Benchmarks/perf-summary.py PERF_DATA FORMA_BINARY [REGEX ...]
  e.g. Benchmarks/perf-summary.py perf.data forma "LiveSessionMachine.handle" "PoseAnalyzer.process" "JSONEncoder"
"""
import collections
import re
import shutil
import subprocess
import sys

data, binary = sys.argv[1], sys.argv[2]
out = subprocess.run(["perf", "script", "-i", data, "-F", "comm,tid,ip,sym,dso"], capture_output=True, text=True).stdout
samples = []
cur = None
for line in out.splitlines():
    if not line.strip():
        if cur: samples.append(cur); cur = None
        continue
    if not line.startswith("\t") and not line.startswith(" "):
        cur = {"comm": line.rsplit(" ", 2)[0].strip(), "frames": []}
        continue
    m = re.match(r"\s*([0-9a-f]+) (.*) \((.*)\)$", line)
    if m and cur is not None:
        cur["frames"].append((int(m.group(1), 16), m.group(2), m.group(3)))
if cur: samples.append(cur)
addrs = sorted({ip for s in samples for ip, sym, dso in s["frames"] if dso.endswith("/forma") and sym.startswith("[unknown]")})
res = subprocess.run([shutil.which("llvm-symbolizer") or "/opt/swift/usr/bin/llvm-symbolizer", "--obj=" + binary, "--functions=linkage", "--no-inlines", "--output-style=GNU"],
    input="\n".join(hex(a) for a in addrs), capture_output=True, text=True).stdout.splitlines()
names = {}
for i, a in enumerate(addrs):
    names[a] = res[2*i] if 2*i < len(res) else "?"
dem = subprocess.run([shutil.which("swift-demangle") or "/opt/swift/usr/bin/swift-demangle", "--simplified", "--compact"], input="\n".join(names[a] for a in addrs), capture_output=True, text=True).stdout.splitlines()
for i, a in enumerate(addrs): names[a] = dem[i] if i < len(dem) else names[a]
# perf resolves some of forma's symbols itself and gives them mangled: demangle those too.
mangled = sorted({sym for s in samples for ip, sym, dso in s["frames"] if sym.startswith("$s")})
dem = subprocess.run([shutil.which("swift-demangle") or "/opt/swift/usr/bin/swift-demangle", "--simplified", "--compact"], input="\n".join(mangled), capture_output=True, text=True).stdout.splitlines()
demangled = dict(zip(mangled, dem)) if len(dem) == len(mangled) else {}
def name(f):
    ip, sym, dso = f
    if dso.endswith("/forma") and sym.startswith("[unknown]"): return names.get(ip, "?")
    return demangled.get(sym, sym)
n = len(samples)
print(f"samples: {n}")
if not n:
    sys.exit("no samples")
def pct(c): return f"{100*c/n:5.1f} %"
dsos = collections.Counter(); comms = collections.Counter(); selfs = collections.Counter()
for s in samples:
    comms[s["comm"]] += 1
    if s["frames"]:
        f = s["frames"][0]; d = f[2].split("/")[-1]; dsos[d] += 1; selfs[(name(f), d)] += 1
print("\nby thread:")
for k, c in comms.most_common(6):
    print(pct(c), k)
print("\nby library (self):")
for k, c in dsos.most_common(8):
    print(pct(c), k)
print("\ntop functions (self):")
for k, c in selfs.most_common(40):
    print(pct(c), k[1], k[0][:150])
pats = sys.argv[3:] or []
print("\ninclusive:")
for p in pats:
    c = sum(1 for s in samples if any(re.search(p, name(f)) for f in s["frames"]))
    print(pct(c), p)
