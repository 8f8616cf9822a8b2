#!/usr/bin/env bash
# The type checker over the desktop page (issue 39, ADR 39): TypeScript, pinned in this folder's
# package.json, checks every module of ui/js and the browser tests' fake backend (fake-tauri.js)
# with `--strict` and no unused names, against ui/js/ipc-contract.d.ts, which the Rust types
# generate. Plain JavaScript with JSDoc types: nothing is emitted, the page is served as it is
# (ADR 10).
# Installs the npm packages from the committed lock file when TypeScript is missing (offline
# once they are installed); prints the checker's errors and how many `any` the page declares.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

if [[ ! -x node_modules/.bin/tsc ]]; then
  npm ci --no-audit --no-fund
fi
node_modules/.bin/tsc -p tsconfig.json
# An `any` is allowed only with a comment saying why (ADR 39): count them, so a review sees
# the number move.
anys=$({ grep -Eo '\{[^}]*\bany\b[^}]*\}' ../../ui/js/*.js fake-tauri.js globals.d.ts || true; } | wc -l)
echo "typecheck: ui/js and fake-tauri.js pass tsc --strict; JSDoc types naming any: ${anys}"
