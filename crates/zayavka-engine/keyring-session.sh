#!/bin/sh
# Runs a command inside a private D-Bus session with an unlocked GNOME Keyring, so the real
# Secret Service round trip in zayavka-engine's tests can run on a headless machine or in CI.
#
#   crates/zayavka-engine/keyring-session.sh cargo test -p zayavka-engine
#
# The session is throw-away: HOME, XDG_RUNTIME_DIR and XDG_DATA_HOME point into a temporary folder
# that is removed afterwards, so the keyring daemon never reads or writes the user's real keyrings.
# The keyring's password ("pw") protects nothing: the folder lives only as long as the command.
# The command's exit status is passed through.
#
# Needs: dbus-run-session (package dbus-daemon), dbus-send (dbus-bin) and
# gnome-keyring-daemon (package gnome-keyring). Building zayavka-engine on Linux also needs
# libdbus-1-dev and pkg-config.
set -eu

if [ "$#" -eq 0 ]; then
    echo "usage: $0 COMMAND [ARGUMENT...]" >&2
    exit 2
fi

for tool in dbus-run-session dbus-send gnome-keyring-daemon; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "$0: $tool is missing; install it with: apt-get install -y dbus-daemon dbus-bin gnome-keyring" >&2
        exit 2
    fi
done

scratch=$(mktemp -d "${TMPDIR:-/tmp}/zayavka-keyring.XXXXXX")
trap 'rm -rf "$scratch"' EXIT HUP INT TERM
mkdir -p "$scratch/home" "$scratch/runtime" "$scratch/data"
# The keyring daemon refuses a runtime folder that others can read.
chmod 700 "$scratch/runtime"

# Rust's tools find their toolchains through HOME unless told otherwise; pin them to the real
# locations before HOME moves to the scratch folder.
export CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}"
export RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}"
export HOME="$scratch/home"
export XDG_RUNTIME_DIR="$scratch/runtime"
export XDG_DATA_HOME="$scratch/data"
# Without a display no graphical prompt can appear, and libdbus will not autolaunch a second bus.
unset DISPLAY WAYLAND_DISPLAY

# The inner shell receives the command as "$@", so no argument is ever re-parsed by a shell. No
# `exec` here: the trap above must still remove the scratch folder afterwards.
status=0
dbus-run-session -- sh -c '
    set -eu
    # --unlock reads the login keyring password from stdin, creates the keyring on first use and
    # prints the variables that point clients at the daemon.
    eval "$(printf pw | gnome-keyring-daemon --unlock --components=secrets)"
    export GNOME_KEYRING_CONTROL
    # Tells tests that this keyring is throw-away, so they may store keys under the real
    # service name that the zayavka binary uses.
    export ZAYAVKA_THROWAWAY_KEYRING=1
    # The daemon registers on the bus asynchronously; wait until it owns the Secret Service name.
    tries=0
    until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
            org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null \
            | grep -q "boolean true"; do
        tries=$((tries + 1))
        if [ "$tries" -gt 50 ]; then
            echo "keyring-session.sh: the keyring daemon did not start" >&2
            exit 2
        fi
        sleep 0.1
    done
    "$@"
' keyring-session "$@" || status=$?
exit "$status"
