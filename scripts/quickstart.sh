#!/usr/bin/env bash
# Quick start: install dependencies, build, and lint the bundled example kernel.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
echo "+ build/hms-lint examples/transpose.cu"
build/hms-lint examples/transpose.cu || true
