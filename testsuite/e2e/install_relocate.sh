#!/usr/bin/env bash
# End to end: `cmake --install` into a temporary prefix, move the prefix
# (relocation), lint from there with no HMS_LINT_INCLUDE_DIR; a lone binary
# with no headers beside it must fail with status 2 (never a silent pass);
# `cpack -G DEB` builds a package whose extracted tree lints too.
# Usage: install_relocate.sh <build-dir> <source-dir>
set -u
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
unset HMS_LINT_INCLUDE_DIR

cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1 || {
  cat "$tmp/install.log"; fail "cmake --install"; }
mv "$tmp/prefix" "$tmp/moved"
for f in bin/hms-lint share/hms-lint/include/cuda_runtime.h share/man/man1/hms-lint.1 \
         share/doc/hms-lint/guide.md share/doc/hms-lint/checks/hms-uncoalesced-access.md; do
  [ -e "$tmp/moved/$f" ] || fail "not installed: $f"
done

cp "$src/examples/transpose.cu" "$tmp/k.cu"
"$tmp/moved/bin/hms-lint" --fail-on=note "$tmp/k.cu" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] || { cat "$tmp/out" "$tmp/err"; fail "relocated binary: exit $rc, wanted 1"; }
grep -q "k.cu:[0-9]*:[0-9]*: warning: .*\[hms-uncoalesced-access\]" "$tmp/out" ||
  fail "relocated binary reported no uncoalesced access: $(cat "$tmp/out")"

mkdir "$tmp/lone"
cp "$tmp/moved/bin/hms-lint" "$tmp/lone/"
"$tmp/lone/hms-lint" --fail-on=note "$tmp/k.cu" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] || fail "binary without headers: exit $rc, wanted 2"
grep -q "cannot find hms-lint's CUDA headers" "$tmp/err" || fail "no message: $(cat "$tmp/err")"
HMS_LINT_INCLUDE_DIR="$tmp/moved/share/hms-lint/include" "$tmp/lone/hms-lint" "$tmp/k.cu" \
  >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "HMS_LINT_INCLUDE_DIR not used: exit $rc"

# Debian package (needs dpkg-deb; dpkg-shlibdeps for the dependencies)
if command -v dpkg-deb >/dev/null; then
  (cd "$tmp" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/pkg") \
    >"$tmp/cpack.log" 2>&1 || { cat "$tmp/cpack.log"; fail "cpack -G DEB"; }
  deb=$(ls "$tmp"/pkg/*.deb 2>/dev/null | head -1)
  [ -n "$deb" ] || fail "no .deb produced"
  dpkg-deb -f "$deb" Depends | grep -q libclang || fail "package does not depend on libclang"
  dpkg-deb -x "$deb" "$tmp/deb"
  "$tmp/deb/usr/bin/hms-lint" "$tmp/k.cu" >"$tmp/out" 2>&1
  rc=$?
  [ $rc -eq 1 ] || { cat "$tmp/out"; fail "binary from the .deb: exit $rc"; }
fi
echo "PASS"
