#!/usr/bin/env bash
# Builds and starts the Zayavka desktop app. On Debian or Ubuntu it first installs the system
# libraries the app needs (WebKitGTK 4.1 and the rest) when any is missing, asking for sudo
# only then. The first build takes several minutes; later starts take seconds.
#
#   bash scripts/desktop.sh            # a release build, as residents get it
#   ZAYAVKA_DEBUG_BUILD=1 bash scripts/desktop.sh   # a debug build (faster to build)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [ "$(uname -s)" = Linux ] && command -v dpkg-query >/dev/null; then
    packages=(libwebkit2gtk-4.1-dev libgtk-3-dev libsoup-3.0-dev librsvg2-dev
              libayatana-appindicator3-dev libssl-dev pkg-config build-essential file libxdo-dev)
    missing=()
    for package in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
            || missing+=("$package")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        echo "Устанавливаю системные библиотеки для окна приложения: ${missing[*]}" >&2
        sudo=()
        [ "$(id -u)" -ne 0 ] && sudo=(sudo)
        "${sudo[@]}" apt-get update -q
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
            apt-get install -y -q --no-install-recommends "${missing[@]}"
    fi
elif [ "$(uname -s)" = Linux ]; then
    echo "Это не Debian и не Ubuntu: установите WebKitGTK 4.1, GTK 3, libsoup 3 и librsvg" \
         "средствами своего дистрибутива (см. README)." >&2
fi

if ! command -v cargo >/dev/null; then
    echo "Не найден cargo: установите Rust с https://rustup.rs и запустите команду снова." >&2
    exit 1
fi

if [ -n "${ZAYAVKA_DEBUG_BUILD:-}" ]; then
    exec cargo run --locked -p zayavka-desktop
fi
exec cargo run --locked --release -p zayavka-desktop --features tauri/custom-protocol
