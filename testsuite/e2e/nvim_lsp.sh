#!/usr/bin/env bash
# End to end with a real client: headless Neovim's built-in LSP client
# attached to a .cu buffer receives hms-lint's diagnostics (nvim_lsp_init.lua).
# Usage: nvim_lsp.sh <build-dir> <source-dir> <binary>
set -u
command -v nvim >/dev/null || { echo "SKIP: nvim not installed (apt-get install neovim)"; exit 77; }
src=$2 bin=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$src/examples/transpose.cu" "$tmp/transpose.cu"
HOME=$tmp XDG_CONFIG_HOME=$tmp/config XDG_DATA_HOME=$tmp/data XDG_STATE_HOME=$tmp/state \
HMS_BIN=$bin HMS_FILE=$tmp/transpose.cu HMS_OUT=$tmp/diags.txt \
  timeout 120 nvim --headless -n -i NONE -u "$(dirname "$0")/nvim_lsp_init.lua" >"$tmp/nvim.log" 2>&1
rc=$?
cat "$tmp/diags.txt" 2>/dev/null
[ $rc -eq 0 ] || { cat "$tmp/nvim.log"; echo "FAIL: nvim exited with $rc"; exit 1; }
# severity 2 = warning; line:col 1-based as Neovim shows them
grep -q '^12:5:2:hms-uncoalesced-access:' "$tmp/diags.txt" ||
  { echo "FAIL: Neovim did not receive the uncoalesced-access warning at 12:5"; exit 1; }
grep -q '^26:22:2:hms-shared-bank-conflict:' "$tmp/diags.txt" ||
  { echo "FAIL: Neovim did not receive the bank-conflict warning at 26:22"; exit 1; }
echo PASS
