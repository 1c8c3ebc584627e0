"""What the callgrind scripts in Benchmarks/ share: the two workarounds valgrind 3.19 (Debian 12) needs for a Swift 6
binary, and the check for the tools they use.

- valgrind 3.19 cannot read the DWARF 5 debug information of a Swift 6 release binary, so the binary is run from a
  copy without it (`objcopy --strip-debug`, symbols kept, so `--toggle-collect` still finds functions by name).
- It crashes when a thread calls sigsuspend with a mask in read-only memory, as libdispatch's main thread does under
  Swift's async main, so a ten-line preload passes the kernel a copy of the mask (`LD_PRELOAD`).
"""

import os
import shutil
import subprocess
import sys

SHIM = r"""
#define _GNU_SOURCE
#include <signal.h>
#include <unistd.h>
#include <sys/syscall.h>
/* valgrind 3.19 writes into the mask it is given (to keep its own signal unblocked); libdispatch passes a const one */
int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, (size_t)8);
}
"""


def fail(script, message):
    """Prints `script: message` to standard error and exits with status 2."""
    print(f"{script}: {message}", file=sys.stderr)
    sys.exit(2)


def need(script, tool, package):
    """The path of `tool`, or exits naming the Debian package that provides it."""
    path = shutil.which(tool)
    if path is None:
        fail(script, f"{tool} is not installed: install the Debian package {package}")
    return path


def prepare(script, binary, directory):
    """Writes into `directory` a copy of `binary` without debug information and the sigsuspend preload; returns
    (copy, preload). Needs objcopy (binutils) and a C compiler."""
    objcopy = need(script, "objcopy", "binutils")
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        fail(script, "no C compiler (cc, gcc or clang) for the sigsuspend preload: install the Debian package gcc")
    source = os.path.join(directory, "sigsuspend.c")
    with open(source, "w") as handle:
        handle.write(SHIM)
    shim = os.path.join(directory, "sigsuspend.so")
    subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", shim, source], check=True)
    copy = os.path.join(directory, os.path.basename(binary))
    subprocess.run([objcopy, "--strip-debug", binary, copy], check=True)
    return copy, shim
