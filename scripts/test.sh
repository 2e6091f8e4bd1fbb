#!/usr/bin/env bash
# Builds hms-lint and runs the whole test suite with CTest.
# HMS_SANITIZE=1 builds with AddressSanitizer + UndefinedBehaviorSanitizer
# (in build-asan/). Fails when any test fails or when no test ran.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
if [ "${HMS_SANITIZE:-0}" = "1" ]; then
  dir=build-asan
  extra=(-DHMS_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug)
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:halt_on_error=1}"
  export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/testsuite/lsan.supp:print_suppressions=0}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
else
  dir=build
  extra=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
fi
schema="${HMS_SARIF_SCHEMA:-$PWD/../shared/data/sarif-schema-2.1.0.json}"
cmake -S . -B "$dir" "${extra[@]}" -DHMS_SARIF_SCHEMA="$schema" >/dev/null
cmake --build "$dir" -j"$(nproc)"
cd "$dir"
log=$(mktemp)
set +e
ctest --output-on-failure -j"$(nproc)" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
if ! grep -Eq '^[0-9]+% tests passed, [0-9]+ tests failed out of [1-9][0-9]*' "$log"; then
  echo "hms-lint: no test ran" >&2
  rc=1
fi
rm -f "$log"
exit "$rc"
