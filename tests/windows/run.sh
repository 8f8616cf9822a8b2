#!/usr/bin/env bash
# A resident's Windows under Wine (issue 29): the installer, the command-line tool through a
# whole flow, what differs on Windows, the upgrade and the uninstaller, and the desktop app's
# message when WebView2 is missing. Needs `bash scripts/windows.sh build` first; the steps are
# in tests/windows/flow.py, what it leaves in target/windows-test/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
exec python3 tests/windows/flow.py "$@"
