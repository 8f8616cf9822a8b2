#!/usr/bin/env bash
# Installs, starts, upgrades and removes the .deb for real (issue 16), and checks the .rpm's
# contents. Run by scripts/test.sh after scripts/package.sh has built both packages; Linux only,
# as root (CI is a throw-away Debian 12 machine). It installs and removes only the `zayavka`
# package, refuses to start when that package is installed already, and removes it again on any
# exit, failed or not.
#
#  1. `apt-get install ./zayavka_V_amd64.deb`; the files, dependencies and the .desktop entry
#     (desktop-file-validate) are what the package should hold;
#  2. the app started from the .desktop entry's Exec line under Xvfb with a fresh HOME (the OS
#     folders, no ZAYAVKA_HOME): its window painted, the screen kept in target/packaging-test/;
#  3. a second first start on another fresh HOME under `strace -f -e trace=connect`: no
#     connect() to any address but loopback (no update check, no telemetry; ADR 26);
#  4. the installed `zayavka --version` and `zayavka draft --offline`, a profile and a setting;
#  5. the same package bundled again at a higher version (scripts/package.sh --no-build
#     --version V+1: the same binaries, only the package metadata differs) and installed over
#     the first: drafts, profile and settings read back unchanged, also after the upgraded app
#     has started and opened the database;
#  6. `apt-get remove`: every file the package installed is gone, the resident's folders are
#     byte for byte as they were;
#  7. the .rpm: name, version, file list and library requirements (`rpm -qp`).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root="$(pwd)"
out="$root/target/packaging-test"

fail() { echo "packaging test: $*" >&2; exit 1; }

[[ "$(uname -s)" == Linux ]] || fail "Linux only"
[[ "$(id -u)" -eq 0 ]] || fail "installs a package for real, so it runs as root (CI's machine)"
for tool in apt-get dpkg-query rpm xvfb-run dbus-run-session import xdotool strace \
    desktop-file-validate python3; do
    command -v "$tool" >/dev/null || fail "$tool is missing: run .ci/run, or apt-get install" \
        "rpm xvfb dbus-daemon dbus-bin imagemagick xdotool strace desktop-file-utils"
done
installed() { dpkg-query -W -f='${Status}' zayavka 2>/dev/null | grep -q "install ok installed"; }
installed && fail "the zayavka package is installed already; this test will not touch it"

version="$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml)"
IFS=. read -r major minor patch <<<"$version"
higher="$major.$minor.$((patch + 1))"
target="${CARGO_TARGET_DIR:-target}"
[[ $target == /* ]] || target="$root/$target"
deb="$target/release/bundle/deb/zayavka_${version}_amd64.deb"
rpm_file="$target/release/bundle/rpm/zayavka-${version}-1.x86_64.rpm"
[[ -f "$deb" && -f "$rpm_file" ]] || fail "run bash scripts/package.sh first ($deb)"

# What a resident downloads stays under 10 MB (issue 31): both programs in each package, their
# shared code compressed once (xz -9 for the .deb, zstd -21 for the .rpm; ADR 25).
limit=10000000
for package in "$deb" "$rpm_file"; do
    size="$(stat -c %s "$package")"
    [[ $size -lt $limit ]] || fail "$(basename "$package") is $size bytes, over the $limit-byte limit"
done

# scripts/package.sh looks for the binaries where CARGO_TARGET_DIR puts them (issue 31): with an
# empty target folder it must say they are missing there, not bundle ./target's.
empty_target="$(mktemp -d)"
if CARGO_TARGET_DIR="$empty_target" bash scripts/package.sh --no-build >"$empty_target.log" 2>&1 \
    || ! grep -q "$empty_target/release/zayavka-desktop is missing" "$empty_target.log"; then
    cat "$empty_target.log" >&2
    rm -rf "$empty_target" "$empty_target.log"
    fail "scripts/package.sh --no-build did not look in CARGO_TARGET_DIR"
fi
rm -rf "$empty_target" "$empty_target.log"

rm -rf "$out"
mkdir -p "$out"
scratch="$(mktemp -d)"
cleanup() {
    local status=$?
    if [[ $status -ne 0 && -s "$out/sessions.log" ]]; then
        echo "--- the last lines of target/packaging-test/sessions.log:" >&2
        tail -n 20 "$out/sessions.log" >&2
    fi
    if dpkg-query -W -f='${Status}' zayavka 2>/dev/null | grep -qv "not-installed"; then
        dpkg --purge zayavka >/dev/null 2>&1 || true
    fi
    rm -rf "$scratch"
    exit "$status"
}
trap cleanup EXIT

resident="$scratch/resident"
mkdir -p "$resident"
as_resident() {
    env -u ZAYAVKA_HOME -u XDG_CONFIG_HOME -u XDG_DATA_HOME -u ZAYAVKA_API_KEY \
        HOME="$resident" "$@"
}
# Prints first_start.py's JSON line; the display's, D-Bus's and the app's own messages go to
# target/packaging-test/sessions.log.
first_start() {
    xvfb-run -a -s "-screen 0 1280x800x24" dbus-run-session -- env NO_AT_BRIDGE=1 \
        python3 "$root/tests/packaging/first_start.py" "$@" 2>>"$out/sessions.log" | tail -n 1
}
apt_install() {
    apt-get install -y -q --no-install-recommends "$1" >"$out/apt-install.log" 2>&1 \
        || { cat "$out/apt-install.log" >&2; fail "apt-get install $1 failed"; }
}

echo "== install $(basename "$deb") ($(stat -c %s "$deb") bytes)"
install_start="$(date +%s.%N)"
apt_install "$deb"
install_end="$(date +%s.%N)"
installed || fail "dpkg does not list zayavka as installed"
[[ "$(dpkg-query -W -f='${Version}' zayavka)" == "$version" ]] || fail "installed version is not $version"
dpkg-query -W -f='${Depends}\n' zayavka | grep -q "libwebkit2gtk-4.1-0" || fail "no WebKitGTK 4.1 dependency"
dpkg-query -W -f='${Depends}\n' zayavka | grep -q "libgtk-3-0" || fail "no GTK 3 dependency"
dpkg-query -W -f='${Recommends}\n' zayavka | grep -q "gnome-keyring" || fail "no keyring recommended"
dpkg -L zayavka >"$out/installed-files.txt"
for file in /usr/bin/zayavka-desktop /usr/bin/zayavka /usr/share/applications/zayavka.desktop \
    /usr/share/icons/hicolor/32x32/apps/zayavka-desktop.png \
    /usr/share/icons/hicolor/128x128/apps/zayavka-desktop.png \
    /usr/share/icons/hicolor/512x512/apps/zayavka-desktop.png \
    /usr/share/doc/zayavka/copyright; do
    grep -qx "$file" "$out/installed-files.txt" || fail "the package does not install $file"
    [[ -e "$file" ]] || fail "$file is not on disk after the install"
done
desktop="/usr/share/applications/zayavka.desktop"
desktop-file-validate "$desktop" || fail "$desktop does not validate"
grep -qx "Name=Заявка" "$desktop" || fail "the menu entry is not named «Заявка»"
for keyword in заявка "управляющая компания" ЖКХ; do
    grep -q "^Keywords=.*$keyword;" "$desktop" || fail "the menu entry lacks the keyword $keyword"
done
[[ "$(command -v zayavka)" == /usr/bin/zayavka ]] || fail "zayavka is not on the PATH"
exec_line="$(sed -n 's/^Exec=//p' "$desktop")"
echo "   installed in $(python3 -c "print(round($install_end - $install_start, 2))") s;" \
    "Installed-Size $(dpkg-query -W -f='${Installed-Size}' zayavka) KiB; Exec=$exec_line"

echo "== first start from the menu entry's Exec line (Xvfb)"
timing="$(first_start --home "$resident" --screenshot "$out/installed-first-start.png" \
    --since "$install_start" -- "$exec_line")"
echo "   painted: $timing (screen: target/packaging-test/installed-first-start.png)"

echo "== a first start under strace: no connection to anything but loopback"
watched="$scratch/watched"
mkdir -p "$watched"
first_start --home "$watched" --screenshot "$out/first-start-strace.png" --settle 5 \
    --strace "$out/first-start-connect.log" -- "$exec_line" >/dev/null
grep -q 'sa_family=AF_UNIX' "$out/first-start-connect.log" \
    || fail "strace saw no connect() at all; the check would prove nothing"
outbound="$(grep -E 'sa_family=AF_INET6?' "$out/first-start-connect.log" \
    | grep -vE 'inet_addr\("127\.|inet_pton\(AF_INET6, "::1"' || true)"
[[ -z "$outbound" ]] || fail "the app connected to a non-local address on its first start:
$outbound"
echo "   $(grep -c 'connect(' "$out/first-start-connect.log") connect() calls, none outside loopback"

echo "== the installed command-line tool"
as_resident zayavka --version | grep -qx "zayavka $version" || fail "zayavka --version"
as_resident zayavka draft --offline --json \
    --description "В подъезде № 2 неделю не горит свет на лестнице между третьим и четвёртым этажами." \
    >"$scratch/draft.json" 2>"$scratch/draft.err" || fail "zayavka draft --offline failed"
grep -q '"outcome": *"ready"' "$scratch/draft.json" || fail "the offline draft is not ready"
as_resident zayavka draft --offline \
    --description "Во дворе дома 7 не вывозят мусор с понедельника." >/dev/null 2>&1
as_resident zayavka profile set full_name "Иванова Мария Петровна" >/dev/null
as_resident zayavka profile set apartment 45 >/dev/null
as_resident zayavka config set active_profile ollama >/dev/null
[[ -f "$resident/.local/share/zayavka/zayavka.sqlite3" ]] \
    || fail "the drafts are not in the OS data folder ~/.local/share/zayavka"
snapshot() {
    as_resident zayavka drafts list --json
    as_resident zayavka drafts show 1 --json
    as_resident zayavka drafts show 2 --json
    as_resident zayavka profile show --json
    cat "$resident/.config/zayavka/config.toml"
}
snapshot >"$out/before-upgrade.txt"

echo "== upgrade to $higher (the same binaries bundled again under the higher version)"
bash scripts/package.sh --no-build --version "$higher" >"$out/package-higher.log" 2>&1 \
    || { cat "$out/package-higher.log" >&2; fail "bundling version $higher failed"; }
mv "$target/release/bundle/deb/zayavka_${higher}_amd64.deb" "$target/release/bundle/rpm/zayavka-${higher}-1.x86_64.rpm" "$out/"
rm -rf "$target/release/bundle/deb/zayavka_${higher}_amd64" "$target/release/bundle/rpm/zayavka-${higher}-1.x86_64"
apt_install "$out/zayavka_${higher}_amd64.deb"
[[ "$(dpkg-query -W -f='${Version}' zayavka)" == "$higher" ]] || fail "the upgrade did not install $higher"
snapshot >"$out/after-upgrade.txt"
diff -u "$out/before-upgrade.txt" "$out/after-upgrade.txt" || fail "the upgrade changed the data"
first_start --home "$resident" --screenshot "$out/upgraded-start.png" -- "$exec_line" >/dev/null
snapshot >"$out/after-upgraded-start.txt"
diff -u "$out/before-upgrade.txt" "$out/after-upgraded-start.txt" \
    || fail "the upgraded app's start changed the data"
echo "   2 drafts, the profile and the settings read back unchanged"

echo "== remove"
manifest() { (cd "$resident" && find .config .local -type f -print0 | sort -z | xargs -0 sha256sum); }
manifest >"$scratch/data-before-remove.txt"
dpkg -L zayavka >"$scratch/files.txt"
apt-get remove -y -q zayavka >"$out/apt-remove.log" 2>&1 || fail "apt-get remove failed"
while read -r path; do
    [[ -d "$path" ]] && continue
    [[ ! -e "$path" ]] || fail "$path is still there after the removal"
done <"$scratch/files.txt"
manifest >"$scratch/data-after-remove.txt"
diff -u "$scratch/data-before-remove.txt" "$scratch/data-after-remove.txt" \
    || fail "the removal changed the resident's data"
echo "   program files gone; $(wc -l <"$scratch/data-after-remove.txt") data files untouched"

echo "== the .rpm ($(stat -c %s "$rpm_file") bytes)"
[[ "$(rpm -qp --qf '%{NAME} %{VERSION}' "$rpm_file")" == "zayavka $version" ]] || fail "rpm name or version"
rpm -qlp "$rpm_file" >"$out/rpm-files.txt"
for file in /usr/bin/zayavka-desktop /usr/bin/zayavka /usr/share/applications/zayavka.desktop \
    /usr/share/icons/hicolor/128x128/apps/zayavka-desktop.png \
    /usr/share/licenses/zayavka/copyright; do
    grep -qx "$file" "$out/rpm-files.txt" || fail "the rpm does not hold $file"
done
rpm -qp --requires "$rpm_file" | grep -q 'libwebkit2gtk-4.1.so.0' || fail "the rpm does not require WebKitGTK 4.1"
# rpm itself unpacks the payload (zstd) into a scratch root: both programs come out as built.
# The command-line tool byte for byte; the app byte for byte but for the mark Tauri's bundler
# writes into the copy it packs (__TAURI_BUNDLE_TYPE_VAR_UNK in the build becomes ..._RPM in the
# .rpm and ..._DEB in the .deb, so that the app knows how it was installed) and takes out of the
# build again afterwards. --nodeps, as this Debian machine's rpm database lists no libraries.
rpm_root="$scratch/rpm-root"
mkdir -p "$rpm_root"
rpm --root "$rpm_root" --initdb
rpm --root "$rpm_root" -i --nodeps --noscripts "$rpm_file" >"$out/rpm-install.log" 2>&1 \
    || { cat "$out/rpm-install.log" >&2; fail "rpm could not install the .rpm into a scratch root"; }
cmp -s "$rpm_root/usr/bin/zayavka" "$target/release/zayavka" \
    || fail "/usr/bin/zayavka from the .rpm differs from $target/release/zayavka"
dpkg-deb -x "$deb" "$scratch/deb-root"
for packed in "rpm:$rpm_root" "deb:$scratch/deb-root"; do
    kind=${packed%%:*}
    python3 - "${packed#*:}/usr/bin/zayavka-desktop" "$target/release/zayavka-desktop" "$kind" <<'PY' \
        || fail "/usr/bin/zayavka-desktop from the .$kind is not $target/release/zayavka-desktop"
import sys
packed, built, kind = sys.argv[1], sys.argv[2], sys.argv[3].upper()
mark = b"__TAURI_BUNDLE_TYPE_VAR_"
packed_bytes, built_bytes = open(packed, "rb").read(), open(built, "rb").read()
if packed_bytes.count(mark + kind.encode()) != 1 or built_bytes.count(mark + b"UNK") != 1:
    sys.exit(f"the bundler's mark is not {kind} in the package and UNK in the build")
if packed_bytes.replace(mark + kind.encode(), mark + b"UNK") != built_bytes:
    sys.exit("the programs differ beyond the bundler's mark")
PY
done
echo "packaging test: ok"
