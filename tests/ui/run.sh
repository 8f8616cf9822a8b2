#!/usr/bin/env bash
# Runs the browser-side tests of the desktop page (ui/) in Debian's headless Chromium.
# Installs the two npm packages from the committed lock file when they are missing, then runs
# node's test runner, whose summary is printed; the exit code is the runner's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

if [[ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]]; then
  echo "Chromium is missing: install it with 'apt-get install -y chromium'." >&2
  exit 1
fi
if [[ ! -d node_modules/playwright-core || ! -d node_modules/axe-core || ! -d node_modules/typescript ]]; then
  npm ci --no-audit --no-fund
fi
# One file at a time: each starts its own Chromium, and the machine has two cores.
exec node --test --test-concurrency=1 ./*.test.js
