#!/usr/bin/env python3
"""Lint time against parse+IR time on a fixed list of public CUDA files
(bench/perf_files.txt), single-threaded, one file per process:

    hms-lint --dump-ir FILE   parse + IR
    hms-lint FILE             parse + IR + analysis + report

Prints per file the CPU seconds (user + sys) of both, their ratio and the
lint's peak RSS, then the issue-13 figures: total lint time over total
parse+IR time (goal <= 1.5), the slowest file (goal <= 2 s), the "program"
file (a several-thousand-line multi-kernel program, goal <= 10 s) and the
largest peak RSS (goal <= 300 MB). CPU time, not wall time, so that a loaded
machine gives the same figures. Figures only: nothing here passes or fails.

    bench/perf_bench.py [--bin build/hms-lint] [--corpus DIR] [--list FILE]
                        [--fetch] [-- extra hms-lint flags]

The corpus holds one folder per repository, named owner+name (as
/tmp/rw/karpathy+llm.c). --fetch clones missing repositories there with git
at the pinned commit. Include folders per file as bench/realworld_sweep.py.
"""
import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from realworld_sweep import include_dirs  # noqa: E402  one rule for -I


def read_list(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split()
            if len(parts) < 3:
                sys.exit(f"{path}: bad line (want: owner/name commit path [tag]): {line}")
            rows.append({"repo": parts[0], "commit": parts[1], "path": parts[2],
                         "tag": parts[3] if len(parts) > 3 else ""})
    return rows


def fetch(corpus, repo, commit):
    d = os.path.join(corpus, repo.replace("/", "+"))
    if os.path.isdir(d):
        return d
    url = f"https://github.com/{repo}.git"
    subprocess.run(["git", "clone", "--quiet", url, d], check=True)
    subprocess.run(["git", "-C", d, "checkout", "--quiet", commit], check=True)
    return d


def measure(cmd):
    """CPU seconds (user + sys), wall seconds, peak RSS in MB, exit status."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return (ru.ru_utime + ru.ru_stime, time.monotonic() - start, ru.ru_maxrss / 1024.0,
            proc.returncode)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(here, "..", "build", "hms-lint"))
    ap.add_argument("--corpus", default="/tmp/rw")
    ap.add_argument("--list", default=os.path.join(here, "perf_files.txt"))
    ap.add_argument("--fetch", action="store_true", help="git clone missing repositories")
    ap.add_argument("flags", nargs="*", help="after --: extra hms-lint flags")
    a = ap.parse_args()
    if not os.access(a.bin, os.X_OK):
        sys.exit(f"perf_bench: {a.bin}: not an executable hms-lint")
    rows = read_list(a.list)
    print(f"{'file':44} {'parse+IR':>9} {'lint':>8} {'ratio':>6} {'peak_MB':>8} {'exit':>4}")
    tot_p = tot_l = peak = 0.0
    slowest = (0.0, "")
    program = None
    for r in rows:
        d = os.path.join(a.corpus, r["repo"].replace("/", "+"))
        if a.fetch:
            d = fetch(a.corpus, r["repo"], r["commit"])
        path = os.path.join(d, r["path"])
        if not os.path.isfile(path):
            print(f"{r['path']:44} missing (run with --fetch or --corpus)")
            continue
        inc = ["-I" + x for x in include_dirs(path, d)]
        p = measure([a.bin, "--dump-ir", path, "--"] + inc + a.flags)
        l = measure([a.bin, "--fail-on=never", "-j", "1", path, "--"] + inc + a.flags)
        name = os.path.basename(path)
        ratio = l[0] / p[0] if p[0] > 0 else float("nan")
        print(f"{name:44} {p[0]:8.2f}s {l[0]:7.2f}s {ratio:6.2f} {l[2]:8.0f} {l[3]:4}")
        tot_p += p[0]
        tot_l += l[0]
        peak = max(peak, l[2])
        if l[0] > slowest[0]:
            slowest = (l[0], name)
        if r["tag"] == "program":
            program = (l[0], name)
    if tot_p <= 0:
        sys.exit("perf_bench: no file measured")
    print()
    print(f"total lint / total parse+IR: {tot_l:.2f}s / {tot_p:.2f}s = {tot_l / tot_p:.2f}"
          " (goal <= 1.5)")
    print(f"slowest file: {slowest[1]} {slowest[0]:.2f}s (goal <= 2 s)")
    if program:
        print(f"multi-kernel program: {program[1]} {program[0]:.2f}s (goal <= 10 s)")
    print(f"peak memory: {peak:.0f} MB (goal <= 300 MB)")


if __name__ == "__main__":
    main()
