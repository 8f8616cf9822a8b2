#!/usr/bin/env bash
# Windows, built and tested on this Linux machine (issue 29, ADR 33), offline, from Debian's
# packages and the crates in the lock file:
#
#   bash scripts/windows.sh build [--debug]  zayavka.exe, zayavka-standin.exe and the desktop app
#                                            (release), then the NSIS installer; `--debug` builds
#                                            the dev profile instead, stripped in the installer
#                                            (reusing most of the Windows tests' build)
#   bash scripts/windows.sh installer [--debug] [--version X.Y.Z]
#                                            the installer again from what `build` left (the
#                                            upgrade test's higher version)
#   bash scripts/windows.sh test [ARGS…]     every test of the crates that need no window, built
#                                            for Windows and run under Wine (ARGS go to
#                                            `cargo test`, e.g. `-p zayavka-core`)
#   bash scripts/windows.sh wine PROGRAM…    a Windows program in the project's Wine prefix
#   bash scripts/windows.sh prefix           make the Wine prefix (WINEPREFIX, or the project's)
#   bash scripts/windows.sh env              the variables the other commands set, for a shell
#
# With WINDOWS_CERTIFICATE_FILE and WINDOWS_CERTIFICATE_PASSWORD_FILE set (a .pfx and a file
# holding its password; WINDOWS_TIMESTAMP_URL optional), `build` and `installer` sign the
# programs, the uninstaller and the installer with Authenticode (packaging/windows/sign.sh).
#
# The compiler is Debian's `rustc-web` (1.96, with the standard library's source in
# `rust-web-src`), which builds the standard library for x86_64-pc-windows-gnu itself
# (`-Zbuild-std`, allowed on a stable compiler by RUSTC_BOOTSTRAP=1, for this build only); the
# linker is mingw-w64's gcc. `cargo-web` puts `cargo` and `rustc` in /usr/bin, so this script
# names them by full path and every other build keeps rustup's toolchain from PATH.
#
# Wine (Debian's wine64 8.0) runs the results in a prefix of the project's own under the
# target folder. Wine 8 lacks `bcryptprimitives.dll`, where Rust's standard library takes its
# random bytes (`ProcessPrng`); a shim built from packaging/windows/wine/ is put into the
# prefix's system32, as Windows 10 and 11 have it there. It never goes into the installer.
#
# Output: target/windows/ (or $CARGO_TARGET_DIR/windows/): x86_64-pc-windows-gnu/release/*.exe,
# the installer as installer/zayavka-VERSION-setup.exe, and the Wine prefix wine-prefix/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$(pwd)"

target=x86_64-pc-windows-gnu
out="${CARGO_TARGET_DIR:-$root/target}/windows"
# The profile whose binaries go into the installer: release, or dev with --debug.
profile=release
wine=/usr/lib/wine/wine64
# The crates whose tests need no window: everything but the desktop app.
test_packages=(zayavka-codes zayavka-core zayavka-document zayavka-llm zayavka-store
    zayavka-engine zayavka-standin zayavka-cli)

fail() { echo "scripts/windows.sh: $*" >&2; exit 1; }

require_tools() {
    local missing=()
    [[ -x /usr/bin/rustc && -x /usr/bin/cargo ]] || missing+=(rustc-web cargo-web)
    [[ -d /usr/lib/rustlib/src/rust/library ]] || missing+=(rust-web-src)
    command -v x86_64-w64-mingw32-gcc >/dev/null || missing+=(gcc-mingw-w64-x86-64)
    # Building needs no Wine; running does.
    [[ $1 == build || -x $wine ]] || missing+=(wine64)
    command -v makensis >/dev/null || missing+=(nsis)
    [[ -z ${WINDOWS_CERTIFICATE_FILE:-} ]] || command -v osslsigncode >/dev/null \
        || missing+=(osslsigncode)
    if [[ ${#missing[@]} -gt 0 ]]; then
        fail "missing Debian packages: apt-get install --no-install-recommends ${missing[*]}" \
            "(Debian 12: rustc-web is in bookworm-security); .ci/run installs them"
    fi
}

windows_env() {
    export RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1
    export CARGO_TARGET_DIR="$out"
    export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
    export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER="$wine"
    export WINEPREFIX="${WINEPREFIX:-$out/wine-prefix}"
    # No debug chatter, and no dialogs offering to download Wine Mono and Gecko.
    export WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
}

cargo_windows() {
    /usr/bin/cargo "$1" -Zbuild-std=std,panic_abort --target "$target" --locked "${@:2}"
}

# The project's Wine prefix, made once: Wine's own files plus the ProcessPrng shim.
wine_prefix() {
    local shim="$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"
    if [[ ! -f "$WINEPREFIX/system.reg" ]]; then
        mkdir -p "$WINEPREFIX"
        "$wine" wineboot --init >/dev/null 2>&1 || fail "wineboot could not make $WINEPREFIX"
        # Wine 8 plays Windows 7 unless told; residents run 10 and 11 (the installer checks).
        "$wine" reg add 'HKCU\Software\Wine' /v Version /d win10 /f >/dev/null 2>&1
        /usr/lib/wine/wineserver --wait
        # Wine links Documents, Desktop and the other profile folders to the Linux home; here
        # they are folders of the prefix, so that nothing a test writes lands outside it.
        local folder
        for folder in "$WINEPREFIX"/drive_c/users/*/*; do
            if [[ -L $folder ]]; then
                rm "$folder"
                mkdir "$folder"
            fi
        done
    fi
    if [[ ! -f "$shim" || packaging/windows/wine/bcryptprimitives.c -nt "$shim" ]]; then
        x86_64-w64-mingw32-gcc -O2 -shared -o "$shim" packaging/windows/wine/bcryptprimitives.c \
            packaging/windows/wine/bcryptprimitives.def -ladvapi32
    fi
}

workspace_version() {
    sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml
}

binaries() {
    if [[ $profile == release ]]; then echo "$out/$target/release"; else echo "$out/$target/debug"; fi
}

build() {
    echo "== cargo build --profile $profile --target $target (zayavka.exe, zayavka-standin.exe, the app)"
    # One command, so that the crates they share are built once with one set of features.
    cargo_windows build --profile "$profile" -p zayavka-desktop -p zayavka-cli -p zayavka-standin \
        --features tauri/custom-protocol
    installer "$(workspace_version)"
}

installer() {
    local version=$1 from
    from=$(binaries)
    local stage="$out/installer/stage" setup="$out/installer/zayavka-$version-setup.exe"
    for file in zayavka-desktop.exe zayavka.exe WebView2Loader.dll; do
        [[ -f "$from/$file" ]] || fail "$from/$file is missing: run scripts/windows.sh build"
    done
    echo "== makensis (the installer, version $version, $profile binaries)"
    rm -rf "$stage"
    mkdir -p "$stage"
    cp "$from/zayavka-desktop.exe" "$from/zayavka.exe" "$from/WebView2Loader.dll" "$stage/"
    if [[ $profile != release ]]; then
        # The dev profile keeps line tables; the installer needs only the code.
        x86_64-w64-mingw32-strip "$stage/zayavka-desktop.exe" "$stage/zayavka.exe"
    fi
    cp src-tauri/icons/icon.ico "$stage/icon.ico"
    # The licences, as the Linux packages carry them (packaging/linux/copyright) under a
    # Windows heading, with CRLF for Notepad.
    {
        echo "«Заявка» (zayavka-desktop.exe) и программа командной строки zayavka.exe."
        echo "The Zayavka authors. MIT OR Apache-2.0."
        echo
        sed -n '/^Files: \*/,$p' packaging/linux/copyright
    } | sed 's/$/\r/' >"$stage/LICENSE.txt"
    local options=()
    # The dev-profile installer is for tests: packed fast (zlib) rather than small (LZMA).
    [[ $profile == release ]] || options+=(-DFAST)
    # With a certificate (packaging/windows/sign.sh), the programs are signed before they are
    # packed, the uninstaller and the installer as makensis writes them.
    if [[ -n ${WINDOWS_CERTIFICATE_FILE:-} ]]; then
        echo "== signing with $WINDOWS_CERTIFICATE_FILE"
        bash packaging/windows/sign.sh "$stage/zayavka-desktop.exe" "$stage/zayavka.exe"
        options+=(-DSIGN="$root/packaging/windows/sign.sh")
    fi
    makensis -V2 -INPUTCHARSET UTF8 "${options[@]}" -DVERSION="$version" -DSTAGE="$stage" \
        -DOUTFILE="$setup" packaging/windows/installer.nsi
    printf '%s\t%s bytes\n' "$setup" "$(stat -c %s "$setup")"
}

command=${1:-}
case "$command" in
    build | installer) require_tools build ;;
    *) require_tools run ;;
esac
windows_env
shift || true
version=$(workspace_version)
options=()
while [[ $# -gt 0 && $command != wine ]]; do
    case "$1" in
        --debug) profile=dev ;;
        --version) version="${2:?--version needs a value}"; shift ;;
        *) options+=("$1") ;;
    esac
    shift
done
set -- "${options[@]}" "$@"
case "$command" in
    build) build ;;
    installer) installer "$version" ;;
    test)
        wine_prefix
        args=("$@")
        [[ ${#args[@]} -gt 0 ]] || args=("${test_packages[@]/#/-p=}")
        echo "== cargo test --target $target, run under Wine"
        # insta would ask `cargo metadata` for the workspace's root, and a Windows process
        # cannot run Linux's cargo: tell it. The doctests are Linux's: rustdoc cannot run a
        # cross-compiled example without an unstable flag, and they show the same API.
        INSTA_WORKSPACE_ROOT="$root" cargo_windows test --no-fail-fast --tests \
            "${args[@]}"
        ;;
    prefix) wine_prefix ;;
    wine)
        wine_prefix
        exec "$wine" "$@"
        ;;
    env)
        declare -p RUSTC RUSTC_BOOTSTRAP CARGO_TARGET_DIR CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER \
            CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER WINEPREFIX WINEDEBUG WINEDLLOVERRIDES \
            | sed 's/^declare -x /export /'
        ;;
    *)
        sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2
        exit 2
        ;;
esac
