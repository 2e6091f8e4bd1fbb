#!/bin/sh
# Whole-file lint cost against parse+IR cost, and peak memory, for the files
# given (e.g. a several-thousand-line training program fetched by hand):
#   hms-lint --dump-ir FILE   (parse + IR)
#   hms-lint FILE             (parse + IR + analysis + report)
# single-threaded, one run each. Prints seconds, the ratio and peak RSS.
# Figures only: nothing here passes or fails.
#
# usage: bench/lint_time.sh [-b BUILD_DIR] FILE... [-- FLAGS]
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
build=$here/build
if [ "${1:-}" = "-b" ]; then
    build=$2
    shift 2
fi
lint=$build/hms-lint
[ -x "$lint" ] || { echo "lint_time: $lint not built" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "lint_time: /usr/bin/time not found (apt-get install time)" >&2; exit 2; }

files=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    files="$files $1"
    shift
done
[ -n "$files" ] || { echo "usage: bench/lint_time.sh [-b BUILD_DIR] FILE... [-- FLAGS]" >&2; exit 2; }
[ "${1:-}" = "--" ] && shift

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT INT TERM

# seconds and peak RSS (MB) of one run: "S MB rc"
measure() {
    rc=0
    /usr/bin/time -f '%e %M' -o "$tmp" "$@" >/dev/null 2>&1 || rc=$?
    read -r secs kb <"$tmp"
    echo "$secs $((kb / 1024)) $rc"
}

printf '%-48s %9s %9s %6s %8s %4s\n' file parse+IR lint ratio peak_MB exit
for f in $files; do
    p=$(measure "$lint" --dump-ir "$f" -- "$@")
    l=$(measure "$lint" --fail-on=never "$f" -- "$@")
    ps=${p%% *}
    ls=${l%% *}
    mb=$(echo "$l" | cut -d' ' -f2)
    rc=$(echo "$l" | cut -d' ' -f3)
    ratio=$(awk -v a="$ls" -v b="$ps" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
    printf '%-48s %8ss %8ss %6s %8s %4s\n' "$(basename "$f")" "$ps" "$ls" "$ratio" "$mb" "$rc"
done
