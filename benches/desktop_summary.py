#!/usr/bin/env python3
"""The table of scripts/bench-desktop.sh from the samples desktop_measure.py kept.

    desktop_summary.py SAMPLES SIZES

SAMPLES is the JSON-lines file of one run (one object per launch: app, run, paint_s, pss_kib,
processes); SIZES is a JSON object {"zayavka": [plain, stripped], "empty": [plain, stripped]}
in bytes. Prints a Markdown table of medians with their range and the ratio of the medians. A
file without samples of both apps is refused with exit code 2, naming the file, which is kept.
Tested on a recorded run by benches/test_desktop_summary.py.
"""

import json
import statistics
import sys


def read_samples(path):
    """The samples by app, in launch order; a line that is not a sample is refused."""
    samples = {}
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                samples.setdefault(record["app"], []).append(record)
            except (ValueError, KeyError, TypeError) as error:
                raise SystemExit(f"{path}, line {number}: not a sample ({error})") from None
    return samples


def summary(samples, sizes):
    """The table, as a list of lines."""
    for app in ("zayavka", "empty"):
        if not samples.get(app):
            raise ValueError(f"no samples of {app!r}")
    out = []

    def row(label, unit, values_app, values_empty, fmt):
        med_a, med_e = statistics.median(values_app), statistics.median(values_empty)

        def cell(values, med):
            return f"{fmt(med)} ({fmt(min(values))}–{fmt(max(values))})"

        out.append(f"| {label} | {cell(values_app, med_a)} {unit} | "
                   f"{cell(values_empty, med_e)} {unit} | {med_a / med_e:.2f} |")

    paint = {name: [s["paint_s"] for s in runs] for name, runs in samples.items()}
    pss = {name: [s["pss_kib"] / 1024 for s in runs] for name, runs in samples.items()}
    out.append("")
    out.append(f"| measure ({len(paint['zayavka'])} launches each) | Zayavka: median (min–max) "
               "| empty Tauri app: median (min–max) | ratio of medians |")
    out.append("| --- | --- | --- | --- |")
    row("start to painted window", "s", paint["zayavka"], paint["empty"], lambda v: f"{v:.2f}")
    row("PSS, all processes", "MiB", pss["zayavka"], pss["empty"], lambda v: f"{v:.0f}")

    def mb(n):
        return n / 1_000_000

    out.append(f"| binary | {mb(sizes['zayavka'][0]):.1f} MB | {mb(sizes['empty'][0]):.1f} MB "
               f"| {sizes['zayavka'][0] / sizes['empty'][0]:.2f} |")
    out.append(f"| binary, stripped | {mb(sizes['zayavka'][1]):.1f} MB | "
               f"{mb(sizes['empty'][1]):.1f} MB | {sizes['zayavka'][1] / sizes['empty'][1]:.2f} |")
    last = samples["zayavka"][-1]["processes"]
    out.append("")
    out.append("Processes counted in Zayavka's last launch: "
               + ", ".join(f"{name} {kib / 1024:.0f} MiB" for name, kib in last))
    return out


def main():
    path, sizes = sys.argv[1], json.loads(sys.argv[2])
    try:
        lines = summary(read_samples(path), sizes)
    except (OSError, ValueError) as error:
        print(f"bench-desktop: no table from {path}: {error}. The samples measured so far stay "
              "in that file.", file=sys.stderr)
        sys.exit(2)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
