#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages hms-lint needs to build and test.
# Skips apt entirely when everything is already there.
set -euo pipefail
# HMS_DEPS=build installs only what building the tool needs (CI that lints);
# the default adds the test suite's: Criterion, Chromium (which renders
# the HTML report in test_report_html), dpkg-dev (the .deb test), Neovim
# (the headless LSP client test), Python (the scripted LSP client) and
# libclang-rt-19-dev (libFuzzer, for the bounded fuzz run).
pkgs=(cmake make gcc pkg-config libclang-19-dev clang-19 libjansson-dev libyaml-dev)
if [ "${HMS_DEPS:-all}" != build ]; then
  pkgs+=(libcriterion-dev chromium dpkg-dev neovim python3 libclang-rt-19-dev)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "hms-lint: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
