#!/bin/sh
# Analysis time against launch size: hms-lint on a naive transpose (32 x 32
# threads per block, the kernel of examples/transpose.cu alone in a file) for
# a 256 x 256 matrix (grid 8 x 8) and a 16384 x 16384 one (grid 512 x 512,
# 4096 times the blocks). Block sampling should keep the two times close; prints the best of
# RUNS wall times for each and their ratio (large / small).
#
# usage: bench/transpose_scaling.sh [BUILD_DIR] [RUNS]
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
runs=${2:-5}
lint=$build/hms-lint

[ -x "$lint" ] || { echo "transpose_scaling: $lint not built" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
src=$tmp/transpose.cu
cat >"$src" <<'CU'
__global__ void transpose_naive(float *out, const float *in, int n)
{
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    out[x * n + y] = in[y * n + x];
}
CU

# best wall time (seconds) of $runs runs of: hms-lint <args>
best() {
    b=""
    i=0
    while [ "$i" -lt "$runs" ]; do
        t0=$(date +%s.%N)
        "$lint" --format=json --fail-on=never --checks='*' "$@" "$src" >/dev/null 2>&1
        t1=$(date +%s.%N)
        t=$(echo "$t1 - $t0" | bc -l)
        if [ -z "$b" ] || [ "$(echo "$t < $b" | bc -l)" -eq 1 ]; then b=$t; fi
        i=$((i + 1))
    done
    echo "$b"
}

small=$(best --launch=transpose_naive:grid=8,8,1:block=32,32,1 --param=transpose_naive.n=256)
large=$(best --launch=transpose_naive:grid=512,512,1:block=32,32,1 --param=transpose_naive.n=16384)
printf 'transpose   256 x   256 (grid   8 x   8): %.3f s\n' "$small"
printf 'transpose 16384 x 16384 (grid 512 x 512): %.3f s\n' "$large"
printf 'ratio large / small: %.2f\n' "$(echo "$large / $small" | bc -l)"
