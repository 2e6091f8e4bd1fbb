#!/bin/sh
# What building the kernel IR costs on top of parsing: wall time of
#   hms-lint --dump-ir FILE
# against
#   clang-19 -fsyntax-only FILE   (the same hermetic CUDA flags)
# on a ~500-line .cu file (generated from the IR test kernels unless FILE is
# given). Prints both times and the ratio; the front end's budget is 1.20.
#
# usage: bench/parse_overhead.sh [BUILD_DIR] [FILE] [RUNS]
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
file=${2:-}
runs=${3:-10}
lint=$build/hms-lint
clang=${CLANG:-clang-19}
inc=$here/analyzer/include

[ -x "$lint" ] || { echo "parse_overhead: $lint not built" >&2; exit 2; }
command -v "$clang" >/dev/null || { echo "parse_overhead: $clang not found" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

if [ -z "$file" ]; then
    # ~500 lines in the styles of the suite: several kernels per file, each
    # copy of a kernel renamed so they all coexist in one translation unit.
    file=$tmp/bench.cu
    printf '#include <cuda_runtime.h>\n' >"$file"
    n=0
    for src in matmul_tiled transpose_variants stencil2d_halo convolution_const spmv_csr \
               histogram_atomics scan_blelloch nbody_tiles polybench_atax device_inline \
               reduction_templates jacobi2d; do
        n=$((n + 1))
        # drop host code and expectations; rename every kernel and macro-free identifiers
        sed -e '/^int main()/,$d' -e '/EXPECT-/d' -e '/hms-lint:/d' \
            -e "s/\\b\\(__global__ void\\|__device__[a-z_ ]* int\\|__device__ void\\|__device__ float3\\) \\([A-Za-z_0-9]*\\)/\\1 \\2_$n/" \
            "$here/testsuite/kernels/ir/$src.cu" |
            sed -e "s/\\bbodyBodyInteraction(/bodyBodyInteraction_$n(/g" \
                -e "s/\\bidx2d(/idx2d_$n(/g" -e "s/\\bload_pair(/load_pair_$n(/g" \
                -e "s/\\badvance(/advance_$n(/g" -e "s/\\bclamp_index(/clamp_index_$n(/g" \
                -e "s/^#define \\([A-Z_]*\\)/#undef \\1\\n#define \\1/" \
                -e "s/^struct Particle/struct Particle_$n/" -e "s/^__constant__ float c_Kernel/__constant__ float c_Kernel_$n/" \
                -e "s/\\bc_Kernel\\[/c_Kernel_$n[/g" -e "s/^template <class T> struct SharedMemory/template <class T> struct SharedMemory_$n/" \
                -e "s/SharedMemory<T>()/SharedMemory_$n<T>()/" -e "s/warpReduce<T>(/warpReduce_$n<T>(/" >>"$file"
    done
    # template kernels are analysed per instantiation a launch uses
    cat >>"$file" <<'EOF'
void host_launches(float *a, float *b, float *c, int n)
{
    dim3 threads(32, 32), grid(n / 32, n / 32);
    matrixMulCUDA_1<32><<<grid, threads>>>(c, a, b, n, n);
    reduce4_11<float, 256><<<(n + 511) / 512, 256, 256 * sizeof(float)>>>(a, b, n);
}
EOF
fi

lines=$(wc -l <"$file")
flags="-x cuda --cuda-device-only -nocudainc -nocudalib --no-cuda-version-check \
--cuda-gpu-arch=sm_70 -std=c++17 -D__HMS_LINT__=1 -Wno-unknown-cuda-version -ferror-limit=0 \
-Wno-everything -I$inc -include $inc/cuda_runtime.h"

# Both must succeed on the file before timing means anything.
# shellcheck disable=SC2086
"$clang" -fsyntax-only $flags "$file" || { echo "parse_overhead: clang rejects $file" >&2; exit 2; }
"$lint" --dump-ir "$file" >"$tmp/ir.txt" 2>"$tmp/err.txt" || true
kernels=$(grep -c '^kernel ' "$tmp/ir.txt" || true)

now_ns() { date +%s%N; }

# Median of RUNS wall-clock runs, in milliseconds.
time_cmd() {
    i=0
    : >"$tmp/times"
    while [ "$i" -lt "$runs" ]; do
        t0=$(now_ns)
        "$@" >/dev/null 2>&1 || true
        t1=$(now_ns)
        echo $(((t1 - t0) / 1000)) >>"$tmp/times"
        i=$((i + 1))
    done
    sort -n "$tmp/times" | awk '{ v[NR] = $1 } END { m = v[int((NR + 1) / 2)]; printf "%.1f", m / 1000 }'
}

if command -v hyperfine >/dev/null 2>&1; then
    # shellcheck disable=SC2086
    hyperfine -N -w 2 -r "$runs" --export-json "$tmp/h.json" \
        "$clang -fsyntax-only $flags $file" "$lint --dump-ir $file" >/dev/null
    clang_ms=$(sed -n 's/.*"median": *\([0-9.]*\).*/\1/p' "$tmp/h.json" | sed -n 1p)
    lint_ms=$(sed -n 's/.*"median": *\([0-9.]*\).*/\1/p' "$tmp/h.json" | sed -n 2p)
    clang_ms=$(awk "BEGIN { printf \"%.1f\", $clang_ms * 1000 }")
    lint_ms=$(awk "BEGIN { printf \"%.1f\", $lint_ms * 1000 }")
else
    time_cmd "$clang" -fsyntax-only $flags "$file" >/dev/null # warm the caches
    # shellcheck disable=SC2086
    clang_ms=$(time_cmd "$clang" -fsyntax-only $flags "$file")
    lint_ms=$(time_cmd "$lint" --dump-ir "$file")
fi

ratio=$(awk "BEGIN { printf \"%.3f\", $lint_ms / $clang_ms }")
echo "file:                 $file ($lines lines, $kernels kernels)"
echo "clang -fsyntax-only:  $clang_ms ms (median of $runs)"
echo "hms-lint --dump-ir:   $lint_ms ms (median of $runs)"
echo "ratio:                $ratio (budget 1.20)"
awk "BEGIN { exit !($ratio <= 1.20) }" || { echo "over budget" >&2; exit 1; }
