#!/usr/bin/env python3
"""The analysis budget as a trade of time against error (issue 13).

Lints the files of bench/perf_files.txt one process per file, single
threaded, with the JSON report, under one budget setting, and keeps each
report and the CPU seconds it took:

    bench/budget_trade.py run --bin build/hms-lint --out /tmp/b/ref
    bench/budget_trade.py run --bin build/hms-lint --out /tmp/b/quarter \\
        --flag=--analysis-budget=0.25

`--flag` adds an hms-lint option (repeatable); `--env NAME=VALUE` sets an
environment variable for the runs. The first run of a folder also times
`--dump-ir` (parse + IR) per file unless `--parse-from DIR` reuses another
folder's times. Then compare a setting with a reference setting:

    bench/budget_trade.py compare /tmp/b/ref /tmp/b/quarter

which prints the issue-13 time figures of both (total lint / parse+IR, the
slowest file) and, per kernel of every file, the relative change of the
predicted time, of the DRAM traffic (the DRAM roofline bound, DRAM bytes
over peak bandwidth), of the memory time and of the best placement's
predicted speedup: their distribution, the largest, and every finding
gained or lost (check, severity, kernel, line), and every array whose best
placement changed. Figures only: nothing here passes or fails.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perf_bench import read_list  # noqa: E402  one list format
from realworld_sweep import include_dirs  # noqa: E402  one rule for -I


def cpu_run(cmd, env, out_path=None):
    """CPU seconds (user + sys) of one process; its stdout to out_path."""
    sink = open(out_path, "wb") if out_path else subprocess.DEVNULL
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=sink, stderr=subprocess.DEVNULL, env=env)
    _, status, ru = os.wait4(proc.pid, 0)
    if out_path:
        sink.close()
    return ru.ru_utime + ru.ru_stime, time.monotonic() - start, os.waitstatus_to_exitcode(status)


def slug(path):
    return path.replace("/", "_")


def cmd_run(a):
    here = os.path.dirname(os.path.abspath(__file__))
    rows = read_list(a.list or os.path.join(here, "perf_files.txt"))
    os.makedirs(a.out, exist_ok=True)
    env = dict(os.environ)
    for kv in a.env:
        k, _, v = kv.partition("=")
        env[k] = v
    parse_times = {}
    if a.parse_from:
        with open(os.path.join(a.parse_from, "times.json"), encoding="utf-8") as f:
            parse_times = {k: v["parse"] for k, v in json.load(f).items()}
    times = {}
    for r in rows:
        d = os.path.join(a.corpus, r["repo"].replace("/", "+"))
        path = os.path.join(d, r["path"])
        if not os.path.isfile(path):
            print(f"{r['path']}: missing (bench/perf_bench.py --fetch)", file=sys.stderr)
            continue
        key = slug(r["repo"] + "/" + r["path"])
        inc = ["-I" + x for x in include_dirs(path, d)]
        if key in parse_times:
            parse = parse_times[key]
        else:
            parse = cpu_run([a.bin, "--dump-ir", path, "--"] + inc, env)[0]
        lint, wall, rc = cpu_run([a.bin, "--fail-on=never", "-j", "1", "--format=json"] +
                                 a.flag + [path, "--"] + inc, env,
                                 os.path.join(a.out, key + ".json"))
        times[key] = {"name": os.path.basename(path), "parse": parse, "lint": lint,
                      "wall": wall, "exit": rc}
        print(f"{os.path.basename(path):40} parse {parse:6.2f}s lint {lint:6.2f}s exit {rc}",
              flush=True)
    with open(os.path.join(a.out, "times.json"), "w", encoding="utf-8") as f:
        json.dump(times, f, indent=1)
    with open(os.path.join(a.out, "setting.json"), "w", encoding="utf-8") as f:
        json.dump({"flags": a.flag, "env": a.env}, f)


def load(folder):
    with open(os.path.join(folder, "times.json"), encoding="utf-8") as f:
        times = json.load(f)
    reports = {}
    for key in times:
        try:
            with open(os.path.join(folder, key + ".json"), encoding="utf-8") as f:
                reports[key] = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{folder}/{key}.json: unreadable report ({e})", file=sys.stderr)
    return times, reports


def kernels_of(report):
    """(kernel name, occurrence) -> kernel object, over every file entry."""
    out = {}
    for fe in report.get("files", []):
        for k in fe.get("kernels", []):
            base = k.get("name", "?")
            n = 0
            while (base, n) in out:
                n += 1
            out[(base, n)] = k
    return out


def best_speedup(p):
    best = 1.0
    for o in p.get("options", []):
        s = o.get("speedup")
        if o.get("legal") and isinstance(s, (int, float)) and s > best:
            best = s
    return best


def findings(k):
    return {(d.get("check"), d.get("severity"), d.get("line"), d.get("column"))
            for d in k.get("diagnostics", [])}


def rel(a, b):
    if not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
        return None
    if a == b:
        return 0.0
    return abs(b - a) / abs(a) if a else float("inf")


def summary(name, errs):
    v = sorted(e for e, _ in errs if e is not None)
    if not v:
        print(f"  {name:22} no values")
        return
    worst = max(errs, key=lambda x: -1 if x[0] is None else x[0])
    over5 = sum(1 for e in v if e > 0.05)
    over20 = sum(1 for e in v if e > 0.20)
    p90 = v[min(len(v) - 1, int(0.9 * len(v)))]
    print(f"  {name:22} n={len(v):3} median {statistics.median(v) * 100:6.2f}% "
          f"p90 {p90 * 100:6.2f}% max {worst[0] * 100:7.2f}% ({worst[1]})  "
          f">5%: {over5}  >20%: {over20}")


def time_figures(label, times):
    tp = sum(t["parse"] for t in times.values())
    tl = sum(t["lint"] for t in times.values())
    slow = max(times.items(), key=lambda kv: kv[1]["lint"])
    print(f"{label:10} lint/parse+IR {tl:6.2f}s / {tp:5.2f}s = {tl / tp:4.2f}   slowest "
          f"{slow[1].get('name', slow[0])} {slow[1]['lint']:.2f}s")


def cmd_compare(a):
    rt, rr = load(a.ref)
    nt, nr = load(a.new)
    time_figures("reference", rt)
    time_figures("setting", nt)
    errs = {"predicted_time": [], "dram_bytes": [], "t_mem": [], "best_speedup": []}
    gained, lost, moved, missing = [], [], [], []
    for key, rep in rr.items():
        if key not in nr:
            missing.append(key)
            continue
        rk, nk = kernels_of(rep), kernels_of(nr[key])
        short = rt[key].get("name", key)
        for kid, k in rk.items():
            if kid not in nk:
                missing.append(f"{short}:{kid[0]}")
                continue
            n = nk[kid]
            where = f"{short}:{kid[0]}"
            rm, nm = k.get("model") or {}, n.get("model") or {}
            errs["predicted_time"].append((rel(rm.get("predicted_time"),
                                               nm.get("predicted_time")), where))
            errs["dram_bytes"].append((rel((rm.get("bounds") or {}).get("dram"),
                                           (nm.get("bounds") or {}).get("dram")), where))
            errs["t_mem"].append((rel(rm.get("t_mem"), nm.get("t_mem")), where))
            rp = {p.get("array"): p for p in k.get("placements", [])}
            np_ = {p.get("array"): p for p in n.get("placements", [])}
            for arr, p in rp.items():
                q = np_.get(arr)
                if not q:
                    continue
                errs["best_speedup"].append((rel(best_speedup(p), best_speedup(q)),
                                             f"{where}.{arr}"))
                # a change among tied options (every speedup 1.000x) is no advice
                if p.get("best") != q.get("best") and max(best_speedup(p),
                                                          best_speedup(q)) >= a.threshold:
                    moved.append(f"{where}.{arr}: best {p.get('best')} "
                                 f"({best_speedup(p):.3f}x) -> {q.get('best')} "
                                 f"({best_speedup(q):.3f}x)")
            fr, fn = findings(k), findings(n)
            for f in sorted(fr - fn, key=str):
                lost.append(f"{where}: {f[1]} {f[0]} line {f[2]}:{f[3]}")
            for f in sorted(fn - fr, key=str):
                gained.append(f"{where}: {f[1]} {f[0]} line {f[2]}:{f[3]}")
    print("relative change per kernel (array for best_speedup) against the reference:")
    for name, v in errs.items():
        summary(name, v)
    for title, v in (("findings lost", lost), ("findings gained", gained),
                     ("best placement changed", moved), ("missing", missing)):
        print(f"{title}: {len(v)}")
        for line in v:
            print("  " + line)


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--bin", default="build/hms-lint")
    r.add_argument("--corpus", default="/tmp/rw")
    r.add_argument("--list")
    r.add_argument("--out", required=True)
    r.add_argument("--parse-from")
    r.add_argument("--flag", action="append", default=[])
    r.add_argument("--env", action="append", default=[])
    c = sub.add_parser("compare")
    c.add_argument("ref")
    c.add_argument("new")
    c.add_argument("--threshold", type=float, default=1.10,
                   help="report a best-placement change only when a speedup reaches this")
    a = ap.parse_args()
    if a.cmd == "run":
        if not os.access(a.bin, os.X_OK):
            sys.exit(f"budget_trade: {a.bin}: not an executable hms-lint")
        cmd_run(a)
    else:
        cmd_compare(a)


if __name__ == "__main__":
    main()
