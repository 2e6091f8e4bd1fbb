#!/usr/bin/env bash
# End to end: a scripted LSP client drives `hms-lint --lsp` (lsp_session.py).
# Usage: lsp_session.sh <build-dir> <source-dir> <binary>
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
exec python3 "$(dirname "$0")/lsp_session.py" "$3" "$2"
