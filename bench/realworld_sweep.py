#!/usr/bin/env python3
"""Runs hms-lint over a tree of public CUDA sources and prints what it made
of them: exit statuses, kernels found, kernels left with zero accesses, the
share of access sites whose figures are exact, and the slowest files.

Nothing here is a test: the corpus is fetched by hand (never committed) and
the figures go into notes and docs/validation.md.

    bench/realworld_sweep.py [--bin build/hms-lint] [--timeout 60] [--jobs 2]
                             [--csv out.csv] DIR [DIR ...]

Each file is linted on its own with -I for its own folder, the repository's
top-level folders named Common/common/include/llmc/src, and its parents.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

INCLUDE_NAMES = ("Common", "common", "include", "llmc", "src", "inc", "util", "utils")


def include_dirs(path, root):
    dirs = []
    d = os.path.dirname(os.path.abspath(path))
    root = os.path.abspath(root)
    while True:
        dirs.append(d)
        for name in INCLUDE_NAMES:
            sub = os.path.join(d, name)
            if os.path.isdir(sub):
                dirs.append(sub)
        if d == root or len(d) <= len(root):
            break
        d = os.path.dirname(d)
    return dirs


def lint(binary, path, root, timeout):
    cmd = [binary, "--format=json", "--fail-on=never", path, "--"]
    for d in include_dirs(path, root):
        cmd.append("-I" + d)
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, capture_output=True, timeout=timeout)
        rc = proc.returncode
        out = proc.stdout
        err = proc.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        rc, out, err = "timeout", b"", ""
    secs = time.monotonic() - start
    row = {"file": path, "rc": rc, "secs": secs, "kernels": 0, "zero": 0,
           "sites": 0, "exact": 0, "warnings": 0, "notes": 0, "errors": "",
           "zero_names": "", "src_cli": 0, "src_annotation": 0, "src_host-call": 0,
           "src_default": 0, "via": 0}
    try:
        doc = json.loads(out.decode("utf-8", "replace")) if out else None
    except ValueError:
        doc = None
    if doc is None:
        row["errors"] = err.strip().splitlines()[-1] if err.strip() else "no report"
        return row
    zero = []
    for f in doc.get("files", []):
        row["errors"] = " | ".join(f.get("errors", []))[:300]
        for k in f.get("kernels", []):
            row["kernels"] += 1
            launch = k.get("launch", {})
            key = "src_" + str(launch.get("source"))
            if key in row:
                row[key] += 1
            row["via"] += 1 if launch.get("via") else 0
            acc = k.get("accesses", [])
            if not any((a.get("requests") or 0) > 0 for a in acc):
                # "(no sites)": the IR has no access at all (an empty or
                # printf-only kernel, or a front-end miss); otherwise the
                # sites exist but no lane reached them.
                zero.append(k.get("name", "?") + ("" if acc else "(no sites)"))
            for a in acc:
                row["sites"] += 1
                row["exact"] += 1 if a.get("exact") else 0
            for dgn in k.get("diagnostics", []):
                sev = dgn.get("severity")
                if sev == "warning" or sev == "error":
                    row["warnings"] += 1
                else:
                    row["notes"] += 1
    row["zero"] = len(zero)
    row["zero_names"] = " ".join(zero)[:300]
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/hms-lint")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--csv")
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    work = []
    for root in args.dirs:
        for d, _, names in os.walk(root):
            for n in sorted(names):
                if n.endswith(".cu"):
                    work.append((os.path.join(d, n), root))
    with ThreadPoolExecutor(args.jobs) as ex:
        rows = list(ex.map(lambda w: lint(args.bin, w[0], w[1], args.timeout), work))
    if args.csv:
        with open(args.csv, "w", newline="") as fh:
            wr = csv.DictWriter(fh, fieldnames=list(rows[0].keys()))
            wr.writeheader()
            wr.writerows(rows)
    with_k = [r for r in rows if r["kernels"] > 0]
    analysed = [r for r in with_k if r["zero"] == 0]
    rc = {}
    for r in rows:
        rc[str(r["rc"])] = rc.get(str(r["rc"]), 0) + 1
    sites = sum(r["sites"] for r in rows)
    exact = sum(r["exact"] for r in rows)
    kernels = sum(r["kernels"] for r in rows)
    zero = sum(r["zero"] for r in rows)
    nosite = sum(r["zero_names"].count("(no sites)") for r in rows)
    print(f"files: {len(rows)}  exit statuses: {dict(sorted(rc.items()))}")
    print(f"files with kernels: {len(with_k)}  all kernels with >=1 access: {len(analysed)}"
          f" ({100.0 * len(analysed) / max(1, len(with_k)):.1f}%)")
    print(f"kernels: {kernels}  with zero accesses: {zero} ({nosite} with no access site in the IR)")
    print("launch sources: " + "  ".join(
        f"{s}: {sum(r['src_' + s] for r in rows)}"
        for s in ("host-call", "default", "annotation", "cli")) +
        f"  (host-call through a host function's callers: {sum(r['via'] for r in rows)})")
    print(f"access sites: {sites}  exact: {exact} ({100.0 * exact / max(1, sites):.1f}%)")
    print(f"warnings: {sum(r['warnings'] for r in rows)}  notes: {sum(r['notes'] for r in rows)}")
    total = sum(r["secs"] for r in rows)
    print(f"time: total {total:.1f} s, slowest:")
    for r in sorted(rows, key=lambda r: -r["secs"])[:5]:
        print(f"  {r['secs']:6.2f} s  {r['file']}")
    bad = [r for r in rows if r["rc"] not in (0, 1)]
    if bad:
        print("exit 2 / timeouts:")
        for r in bad:
            print(f"  {r['rc']}  {r['file']}: {r['errors'][:160]}")
    zk = [r for r in rows if r["zero"]]
    if zk:
        print("kernels with zero accesses:")
        for r in zk:
            print(f"  {r['file']}: {r['zero_names'][:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
