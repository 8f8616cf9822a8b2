#!/usr/bin/env python3
"""The summary of scripts/bench-desktop.sh on a recorded run, and on the files it must refuse
plainly (issue 31). Run by scripts/test.sh: python3 benches/test_desktop_summary.py"""

import pathlib
import subprocess
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
SUMMARY = HERE / "desktop_summary.py"
RECORDED = HERE / "fixtures" / "desktop-samples.jsonl"
SIZES = '{"zayavka": [21600000, 20600000], "empty": [5100000, 4800000]}'


def summary(path):
    return subprocess.run([sys.executable, str(SUMMARY), str(path), SIZES],
                          capture_output=True, text=True, check=False)


class Summary(unittest.TestCase):
    def test_a_recorded_run_gives_the_table_of_medians(self):
        result = summary(RECORDED)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("| measure (3 launches each) |", result.stdout)
        self.assertIn("| start to painted window | 0.76 (0.74–0.78) s | 0.63 (0.62–0.64) s "
                      "| 1.21 |", result.stdout)
        self.assertIn("| binary, stripped | 20.6 MB | 4.8 MB | 4.29 |", result.stdout)
        self.assertIn("WebKitWebProcess 88 MiB", result.stdout)

    def test_an_empty_or_broken_file_is_refused_naming_it(self):
        with tempfile.TemporaryDirectory() as folder:
            empty = pathlib.Path(folder) / "samples.jsonl"
            empty.write_text("")
            result = summary(empty)
            self.assertEqual(result.returncode, 2)
            self.assertIn(str(empty), result.stderr)
            self.assertIn("stay in that file", result.stderr)
            broken = pathlib.Path(folder) / "broken.jsonl"
            broken.write_text(RECORDED.read_text() + "{not json\n")
            result = summary(broken)
            self.assertNotEqual(result.returncode, 0)
            self.assertIn("line 7", result.stderr + result.stdout)


if __name__ == "__main__":
    unittest.main()
