#!/usr/bin/env python3
"""Peak memory and time of hms-lint per generated input (issue 14).

Generates, in a temporary directory, sources that stress the resource use of
one file: a huge grid, a huge loop count, a large source (many kernels,
--size-mb of text), and the pathological shapes of testsuite/unit/
test_pathological.c. Runs `hms-lint FILE` on each (the driver and its worker:
/usr/bin/time's peak RSS covers both) and prints seconds, peak RSS and the
exit status. Figures only: nothing here passes or fails.

usage: bench/peak_memory.py [--bin BUILD/hms-lint] [--size-mb 50] [--timeout 300]
"""
import argparse
import os
import subprocess
import sys
import tempfile

HDR = "__global__ void k%d(float *o, const float *in, int n) {\n" \
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"


def huge_grid():
    return ("// hms-lint: launch grid(2147483647) block(1024)\n" + HDR % 0 +
            "  o[i] = in[i * 2];\n}\n")


def huge_loop():
    return (HDR % 0 + "  for (long j = 0; j < (1L << 40); j++)\n"
            "    o[i] += in[(i + j) % n];\n}\n"
            "int main() { k0<<<1024, 256>>>(0, 0, 1 << 20); }\n")


def large_source(mb):
    parts, size, n = [], 0, 0
    while size < mb * 1024 * 1024:
        body = HDR % n + "".join("  o[i + %d] = in[i * %d] + in[i + %d];\n" % (j, j + 1, j)
                                 for j in range(40)) + "}\n"
        parts.append(body)
        size += len(body)
        n += 1
    return "".join(parts)


def shape(kind, n):
    body = HDR % 0
    if kind == "sum":
        body += "  o[i] = " + " + ".join(["in[i]"] * n) + ";\n"
    elif kind == "else-if":
        body += "  if (n == 0) o[i] = in[i];\n" + "".join(
            "  else if (n == %d) o[i] = in[i + %d];\n" % (j, j) for j in range(1, n))
    elif kind == "loops":
        body += "".join("  for (int j%d = 0; j%d < 2; j%d++)\n" % (j, j, j) for j in range(n))
        body += "    o[i] += in[i];\n"
    return body + "}\nint main() { k0<<<4, 128>>>(0, 0, 8); }\n"


def measure(lint, path, timeout, extra=()):
    stats = path + ".time"
    cmd = ["/usr/bin/time", "-f", "%e %M", "-o", stats, lint, "--timeout=%d" % timeout,
           path] + list(extra)
    rc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    with open(stats) as f:
        last = f.read().strip().splitlines()[-1].split()
    return float(last[0]), int(last[1]) / 1024.0, rc


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--bin", default=os.path.join(here, "build", "hms-lint"))
    ap.add_argument("--size-mb", type=float, default=50)
    ap.add_argument("--timeout", type=int, default=300)
    a = ap.parse_args()
    if not os.access(a.bin, os.X_OK) or not os.access("/usr/bin/time", os.X_OK):
        sys.exit("peak_memory: need %s and /usr/bin/time" % a.bin)
    cases = [("huge grid (2^31-1 blocks)", huge_grid()),
             ("huge loop count (2^40 iterations)", huge_loop()),
             ("6000-term sum", shape("sum", 6000)),
             ("5000-branch else-if", shape("else-if", 5000)),
             ("1000 nested loops", shape("loops", 1000)),
             ("large source (%g MB)" % a.size_mb, large_source(a.size_mb))]
    print("%-36s %9s %10s %4s" % ("input", "seconds", "peak MB", "exit"))
    with tempfile.TemporaryDirectory() as tmp:
        for i, (name, text) in enumerate(cases):
            path = os.path.join(tmp, "case%d.cu" % i)
            with open(path, "w") as f:
                f.write(text)
            secs, mb, rc = measure(a.bin, path, a.timeout)
            print("%-36s %9.2f %10.1f %4d" % (name, secs, mb, rc), flush=True)


if __name__ == "__main__":
    main()
