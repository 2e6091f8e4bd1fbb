#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages hms-lint needs to build and test.
# Skips apt entirely when everything is already there.
set -euo pipefail
pkgs=(cmake make gcc pkg-config libclang-19-dev clang-19 libcriterion-dev libjansson-dev
      libyaml-dev libclang-rt-19-dev)
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
