#!/usr/bin/env python3
"""Launch two desktop apps alternately under the current X display and measure each launch.

Used by scripts/bench-desktop.sh, which runs it inside Xvfb and a private D-Bus session:

    desktop_measure.py SAMPLES RUNS NAME=BINARY NAME=BINARY

For every launch: the time from exec to a painted window (the app's top-level window exists and
shows dark text on a light ground, checked by capturing it with ImageMagick's `import`),
then, after the window has settled for SETTLE seconds, the proportional set size (PSS, from
/proc/PID/smaps_rollup, so pages shared between processes count once) summed over the app and
every process it started (WebKitWebProcess, WebKitNetworkProcess, a sandbox helper if any). Each
app gets one unmeasured launch first, so both start with warm file caches and an existing data
folder. Each sample is appended to SAMPLES as one JSON line the moment it is measured, flushed
and synced, so that no measurement is lost whatever happens to this process or the summary
after it (issue 31: twice a run's twenty samples were measured and the file was empty).
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time

SETTLE = 3.0
PAINT_TIMEOUT = 30.0


def run(*args):
    return subprocess.run(args, capture_output=True, text=True, check=False)


def children_of():
    """Maps each process id to the ids of its children, read from /proc."""
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
    return tree


def descendants(pid):
    tree = children_of()
    found, stack = [], [pid]
    while stack:
        current = stack.pop()
        found.append(current)
        stack.extend(tree.get(current, []))
    return found


def process_name(pid):
    try:
        with open(f"/proc/{pid}/comm") as comm:
            return comm.read().strip()
    except OSError:
        return "?"


def pss_kib(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            for line in rollup:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def window_of(pid):
    """The first visible top-level window whose _NET_WM_PID is `pid`, or None."""
    found = run("xdotool", "search", "--onlyvisible", "--pid", str(pid))
    ids = [line for line in found.stdout.split() if line.strip()]
    return ids[0] if ids else None


def painted(window):
    """Whether the window shows drawn content: both dark pixels (text) and light ones.

    A window being mapped is one flat colour (black, the theme's background, or the webview's
    white), and a webview half drawn over the theme's background is light grey and white: none
    of these has dark text on a light ground, which both apps' first paint has.
    """
    shot = run("import", "-silent", "-window", window, "-colorspace", "gray", "-format",
               "%[fx:minima] %[fx:maxima]", "info:")
    try:
        darkest, lightest = (float(value) for value in shot.stdout.split())
    except ValueError:
        return False
    return darkest < 0.4 and lightest > 0.6


def stop(process):
    everyone = descendants(process.pid)
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    # WebKit's helpers end with their app; any that does not is ended by its id.
    deadline = time.monotonic() + 5
    for pid in everyone[1:]:
        while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
            time.sleep(0.05)
        if os.path.exists(f"/proc/{pid}"):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def launch(binary, home):
    env = dict(os.environ, ZAYAVKA_HOME=home)
    started = time.monotonic()
    process = subprocess.Popen([binary], env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        window = None
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"{binary} exited with {process.returncode} before painting")
            if time.monotonic() - started > PAINT_TIMEOUT:
                raise RuntimeError(f"{binary} painted no window within {PAINT_TIMEOUT} s")
            window = window or window_of(process.pid)
            if window and painted(window):
                # The capture that saw content ended now: the paint happened before this moment.
                paint = time.monotonic() - started
                break
            time.sleep(0.02)
        time.sleep(SETTLE)
        pids = descendants(process.pid)
        per_process = [(process_name(pid), pss_kib(pid)) for pid in pids]
        return {
            "paint_s": paint,
            "pss_kib": sum(kib for _, kib in per_process),
            "processes": per_process,
        }
    finally:
        stop(process)


def keep(path, record):
    """Appends one sample to the samples file as a JSON line, on the disk before returning."""
    with open(path, "a", encoding="utf-8") as samples:
        samples.write(json.dumps(record, ensure_ascii=False) + "\n")
        samples.flush()
        os.fsync(samples.fileno())


def main():
    path = sys.argv[1]
    runs = int(sys.argv[2])
    apps = [argument.split("=", 1) for argument in sys.argv[3:]]
    homes = {name: tempfile.mkdtemp(prefix=f"bench-desktop-{name}-") for name, _ in apps}
    for name, binary in apps:
        launch(binary, homes[name])
    for round_number in range(runs):
        # Alternate which app goes first, so neither always follows the other.
        order = apps if round_number % 2 == 0 else list(reversed(apps))
        for name, binary in order:
            sample = launch(binary, homes[name])
            keep(path, {"app": name, "run": round_number + 1, **sample})
            print(f"  run {round_number + 1:2}/{runs} {name:8} painted {sample['paint_s']:.2f} s, "
                  f"PSS {sample['pss_kib'] / 1024:.0f} MiB", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
