#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with clang and runs each for a bounded
# time over a corpus seeded from the test suite, after replaying every input
# under fuzz/regressions/ (inputs that once crashed). Exits non-zero on any
# crash, leak or sanitizer report. Skipped (exit 0) when no clang with
# libFuzzer is installed (Debian: clang-19 libclang-rt-19-dev).
#   FUZZ_SECONDS=30 scripts/fuzz.sh     # seconds per target (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${FUZZ_SECONDS:-30}"
cc="${FUZZ_CC:-$(command -v clang-19 || command -v clang || true)}"
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
if [ -z "$cc" ] || ! printf '%s\n' '#include <stdint.h>' '#include <stddef.h>' \
    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' |
    "$cc" -fsanitize=fuzzer -x c - -o "$probe/probe" 2>/dev/null; then
  echo "hms-lint fuzz: no clang with libFuzzer; skipped"
  exit 0
fi
dir="${FUZZ_BUILD_DIR:-build-fuzz}"
CC="$cc" cmake -S . -B "$dir" -DHMS_FUZZ=ON -DHMS_BUILD_TESTS=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$dir" -j"${FUZZ_BUILD_JOBS:-$(nproc)}" --target fuzz_source fuzz_readers >/dev/null

export ASAN_SYMBOLIZER_PATH="${ASAN_SYMBOLIZER_PATH:-$(command -v llvm-symbolizer-19 || command -v llvm-symbolizer || true)}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/testsuite/lsan.supp:print_suppressions=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
out="$dir/fuzz"

# Seeds: the test suite's kernels; for the readers a first byte picks the
# reader (0 config, 1 architecture, 2 baseline), the rest is the file.
mkdir -p "$out/corpus/source" "$out/corpus/readers"
find testsuite/kernels examples -name '*.cu' 2>/dev/null | while read -r f; do
  cp "$f" "$out/corpus/source/seed-$(echo "$f" | tr '/' '_')"
done
for f in runtime/arches/*.yaml; do
  { printf '\001'; cat "$f"; } >"$out/corpus/readers/seed-arch-$(basename "$f")"
done
printf '\000%s\n' "checks: '-*,hms-shared-*'" "arch: v100" "fail-on: error" \
  "launch: ['k:grid=64,64:block=16,16']" "param: {k.n: 1024}" >"$out/corpus/readers/seed-config"
printf '\002%s' '{"tool":"hms-lint","version":"0.1.0","arch":"h100","files":[{"path":"a.cu",
"errors":[],"kernels":[{"name":"k","line":1,"diagnostics":[{"check":"hms-uncoalesced-access",
"severity":"warning","message":"m","file":"a.cu","line":2,"column":3,"source_line":"x"}]}]}]}' \
  >"$out/corpus/readers/seed-baseline"

rc=0
for t in source readers; do
  regress=(fuzz/regressions/"$t"/*)
  if [ -e "${regress[0]}" ]; then
    echo "hms-lint fuzz: replaying ${#regress[@]} regression input(s) of fuzz_$t"
    "$out/fuzz_$t" -rss_limit_mb=4096 "${regress[@]}" >"$out/regress-$t.log" 2>&1 ||
      { tail -n 40 "$out/regress-$t.log"; rc=1; }
  fi
  dict=()
  [ "$t" = source ] && dict=(-dict=fuzz/cuda.dict)
  echo "hms-lint fuzz: fuzz_$t for ${secs}s"
  if "$out/fuzz_$t" -max_total_time="$secs" -timeout=60 -rss_limit_mb=4096 -max_len=65536 \
      "${dict[@]}" -artifact_prefix="$out/crash-$t-" -print_final_stats=1 \
      "$out/corpus/$t" >"$out/fuzz-$t.log" 2>&1; then
    grep -E '^stat::(number_of_executed_units|peak_rss_mb)' "$out/fuzz-$t.log" || true
  else
    tail -n 60 "$out/fuzz-$t.log"
    echo "hms-lint fuzz: fuzz_$t failed; the input is under $out/crash-$t-*" >&2
    rc=1
  fi
done
exit "$rc"
