#!/usr/bin/env python3
"""scripts/eval-answers.py files a round of answers under their cases, and refuses what would
spoil the record (issue 36). Run by scripts/test.sh: python3 scripts/test_eval_answers.py"""

import json
import pathlib
import subprocess
import sys
import tempfile
import unittest

SCRIPT = pathlib.Path(__file__).resolve().parent / "eval-answers.py"
INDEX = {
    "prompt_version": "system/v9",
    "prompt_sha256": "aa" * 32,
    "schema_id": "urn:zayavka:schema:request_draft:v9",
    "schema_sha256": "bb" * 32,
    "cases": [{"number": "001", "case": "first-case"}, {"number": "002", "case": "second-case"}],
}


class Filing(unittest.TestCase):
    def setUp(self):
        self.dir = pathlib.Path(tempfile.mkdtemp())
        self.export = self.dir / "export"
        (self.export / "for-model/messages").mkdir(parents=True)
        (self.export / "index.json").write_text(json.dumps(INDEX), encoding="utf-8")
        for entry in INDEX["cases"]:
            message = json.dumps({"description": f"Текст случая {entry['case']}"}, ensure_ascii=False)
            (self.export / "for-model/messages" / f"{entry['number']}.json").write_text(message, encoding="utf-8")
        self.answers = self.dir / "answers"
        self.answers.mkdir()
        self.into = self.dir / "corpus"

    def answer(self, number, text):
        (self.answers / f"{number}.json").write_text(text, encoding="utf-8")

    def file(self, round_):
        return subprocess.run(
            [sys.executable, str(SCRIPT), str(self.export), str(self.answers), "--round", str(round_),
             "--source", "a test", "--into", str(self.into)],
            capture_output=True, text=True, check=False)

    def test_each_answer_goes_under_its_case_with_what_it_answered(self):
        self.answer("001", '{"outcome": "draft"}')
        self.answer("002", '{"outcome": "insufficient_information"}')
        result = self.file(1)
        self.assertEqual(result.returncode, 0, result.stderr)
        record = json.loads((self.into / "system-v9/second-case.json").read_text(encoding="utf-8"))
        self.assertEqual(record["prompt_sha256"], "aa" * 32)
        self.assertEqual(record["schema_id"], INDEX["schema_id"])
        self.assertEqual(record["user_message"], '{"description": "Текст случая second-case"}')
        self.assertEqual(record["answers"], [
            {"round": 1, "source": "a test", "answer": {"outcome": "insufficient_information"}}])
        self.assertEqual(self.file(2).returncode, 0)
        record = json.loads((self.into / "system-v9/first-case.json").read_text(encoding="utf-8"))
        self.assertEqual([a["round"] for a in record["answers"]], [1, 2])

    def test_a_round_filed_twice_is_refused_and_nothing_is_overwritten(self):
        self.answer("001", '{"outcome": "draft"}')
        self.answer("002", '{"outcome": "draft"}')
        self.assertEqual(self.file(1).returncode, 0)
        before = (self.into / "system-v9/first-case.json").read_text(encoding="utf-8")
        self.answer("001", '{"outcome": "multiple_problems"}')
        result = self.file(1)
        self.assertEqual(result.returncode, 1)
        self.assertIn("round 1 is already filed", result.stderr)
        self.assertEqual((self.into / "system-v9/first-case.json").read_text(encoding="utf-8"), before)

    def test_an_answer_that_is_not_one_json_object_is_named(self):
        self.answer("001", "```json\n{}\n```")
        self.answer("002", "{}")
        result = self.file(1)
        self.assertEqual(result.returncode, 1)
        self.assertIn("001.json: not JSON", result.stderr)

    def test_a_missing_answer_is_named_and_nothing_of_the_round_is_filed(self):
        self.answer("001", "{}")
        result = self.file(1)
        self.assertEqual(result.returncode, 1)
        self.assertIn("no answer for messages 002; nothing filed", result.stderr)
        self.assertFalse((self.into / "system-v9/first-case.json").exists())


if __name__ == "__main__":
    unittest.main()
