#!/usr/bin/env python3
"""Sanitizer sweep: lint every .cu file of public CUDA repositories with an
AddressSanitizer/UndefinedBehaviorSanitizer build of hms-lint (build-asan/,
made by `HMS_SANITIZE=1 scripts/test.sh`) and count the files whose run
printed a sanitizer report. Prints figures, never pass/fail.

usage: bench/sanitizer_sweep.py [--bin build-asan/hms-lint] [--timeout 120]
                                [--jobs 2] [--limit N] DIR...

Each file is linted as bench/realworld_sweep.py does (same -I rule). The
report counts files, exit statuses, timeouts and, by sanitizer, the files
with a report; the first lines of each report are printed.
"""
import argparse
import collections
import concurrent.futures
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from realworld_sweep import include_dirs  # noqa: E402

MARKERS = {
    "ERROR: AddressSanitizer": "asan",
    "ERROR: LeakSanitizer": "lsan",
    "runtime error:": "ubsan",
}


def run(binary, path, root, timeout):
    cmd = [binary, "--format=json", "--fail-on=never", f"--timeout={int(timeout)}", path, "--"]
    cmd += ["-I" + d for d in include_dirs(path, root)]
    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1:halt_on_error=1")
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=timeout + 30, env=env)
    except subprocess.TimeoutExpired:
        return path, "timeout", []
    err = p.stderr.decode("utf-8", "replace")
    found = sorted({kind for marker, kind in MARKERS.items() if marker in err})
    excerpt = [line for line in err.splitlines() if any(m in line for m in MARKERS)][:3]
    return path, p.returncode, [(k, excerpt) for k in found]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build-asan/hms-lint")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--limit", type=int, default=0, help="at most N files (0: all)")
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    work = []
    for root in a.dirs:
        for d, _, names in os.walk(root):
            if "/.git" in d:
                continue
            work += [(os.path.join(d, n), root) for n in sorted(names) if n.endswith(".cu")]
    if a.limit:
        work = work[: a.limit]
    statuses = collections.Counter()
    reports = collections.defaultdict(list)
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        futures = [pool.submit(run, a.bin, p, r, a.timeout) for p, r in work]
        for f in concurrent.futures.as_completed(futures):
            path, rc, found = f.result()
            statuses[rc] += 1
            for kind, excerpt in found:
                reports[kind].append((path, excerpt))
    print(f"files: {len(work)}")
    print("exit statuses: " + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items(), key=str)))
    dirty = {p for v in reports.values() for p, _ in v}
    print(f"files with a sanitizer report: {len(dirty)}")
    for kind, items in sorted(reports.items()):
        print(f"  {kind}: {len(items)}")
        for path, excerpt in items:
            print(f"    {path}")
            for line in excerpt:
                print(f"      {line}")


if __name__ == "__main__":
    main()
