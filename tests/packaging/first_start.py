#!/usr/bin/env python3
"""Start the installed app the way a desktop menu does and wait for its painted window.

Used by tests/packaging/run.sh inside Xvfb and a private D-Bus session:

    first_start.py --home DIR --screenshot PNG [--strace LOG] [--since EPOCH] -- EXEC…

EXEC is the `Exec` line of the installed .desktop file (its field codes such as %U are
dropped). The app runs with HOME=DIR and none of Zayavka's or XDG's folder variables, so it uses
the operating system's folders under DIR as a resident's first start would. The window counts
as painted once it shows dark text on a light ground (as in benches/desktop_measure.py); then the
whole screen is kept as PNG after --settle seconds. With --strace the app runs under `strace -f -e trace=connect`, so
every connect() of the app and of each process it starts is logged to LOG. Prints one JSON
object: seconds from exec to painted window, and from EPOCH (the install's start) when given.
"""

import argparse
import json
import os
import shlex
import signal
import subprocess
import sys
import time

PAINT_TIMEOUT = 60.0


def run(*args):
    return subprocess.run(args, capture_output=True, text=True, check=False)


def descendants(pid):
    tree = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        tree.setdefault(int(fields[1]), []).append(int(entry))
    found, stack = [], [pid]
    while stack:
        current = stack.pop()
        found.append(current)
        stack.extend(tree.get(current, []))
    return found


def window_of(pids):
    for pid in pids:
        found = run("xdotool", "search", "--onlyvisible", "--pid", str(pid))
        ids = found.stdout.split()
        if ids:
            return ids[0]
    return None


def painted(window):
    shot = run("import", "-silent", "-window", window, "-colorspace", "gray", "-format",
               "%[fx:minima] %[fx:maxima]", "info:")
    try:
        darkest, lightest = (float(value) for value in shot.stdout.split())
    except ValueError:
        return False
    return darkest < 0.4 and lightest > 0.6


def stop(process):
    everyone = descendants(process.pid)
    for pid in reversed(everyone):
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    deadline = time.monotonic() + 5
    for pid in everyone[1:]:
        while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
            time.sleep(0.05)
        if os.path.exists(f"/proc/{pid}"):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--home", required=True)
    parser.add_argument("--screenshot", required=True)
    parser.add_argument("--strace")
    parser.add_argument("--since", type=float)
    parser.add_argument("--settle", type=float, default=2.0)
    parser.add_argument("command", nargs="+")
    options = parser.parse_args()

    command = [word for word in options.command if not word.startswith("%")]
    if len(command) == 1:
        command = [word for word in shlex.split(command[0]) if not word.startswith("%")]
    if options.strace:
        command = ["strace", "-f", "-qq", "-e", "trace=connect", "-o", options.strace, *command]

    env = {key: value for key, value in os.environ.items()
           if not key.startswith("ZAYAVKA_")
           and key not in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME")}
    env["HOME"] = options.home

    started_wall = time.time()
    started = time.monotonic()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        window = None
        while True:
            if process.poll() is not None:
                sys.exit(f"{command} exited with {process.returncode} before painting a window")
            if time.monotonic() - started > PAINT_TIMEOUT:
                sys.exit(f"{command} painted no window within {PAINT_TIMEOUT} s")
            window = window or window_of(descendants(process.pid))
            if window and painted(window):
                paint = time.monotonic() - started
                break
            time.sleep(0.05)
        # The page fills in its first screen just after the first paint; and a first start
        # that phoned home would do it now or within seconds: keep the app open a while.
        time.sleep(options.settle)
        run("import", "-silent", "-window", "root", options.screenshot)
    finally:
        stop(process)
    result = {"paint_s": round(paint, 2)}
    if options.since is not None:
        result["since_install_start_s"] = round(started_wall + paint - options.since, 2)
    json.dump(result, sys.stdout)
    print()


if __name__ == "__main__":
    main()
