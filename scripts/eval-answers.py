#!/usr/bin/env python3
"""Files a round of recorded model answers into the answer corpus (issue 36, docs/eval.md).

`zayavka eval --export OUT --prompt VERSION` writes what a run sends: OUT/for-model/ (the
system message, the schema, one numbered user message per case) and OUT/index.json (which
number is which case). A capable model answers from for-model/ alone, one JSON file per
message, named by its number. This script puts those answers under their cases:

    python3 scripts/eval-answers.py OUT ANSWERS_DIR --round N [--source TEXT]

Each case gets (or extends) tests/eval/answers/<prompt, "/" as "-">/<case>.json, holding the
prompt's version and SHA-256, the schema's id and SHA-256, the user message exactly as sent,
and one entry per round. A round already filed for a case is refused, never overwritten: a
recorded answer is a record. An answer file that is not one JSON object, or a missing one, is
refused by name, and then nothing of the round is filed.
"""

import argparse
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("export", type=pathlib.Path, help="the folder zayavka eval --export wrote")
    parser.add_argument("answers", type=pathlib.Path, help="the folder of NNN.json answers")
    parser.add_argument("--round", type=int, required=True, help="the round these answers are")
    parser.add_argument(
        "--source",
        default="capable general-purpose LLM acting as the provider, in a session of its own "
        "that saw only the system message, the schema and the user messages",
        help="who answered, for the record",
    )
    parser.add_argument("--into", type=pathlib.Path, default=ROOT / "tests/eval/answers")
    args = parser.parse_args()

    index = json.loads((args.export / "index.json").read_text(encoding="utf-8"))
    folder = args.into / index["prompt_version"].replace("/", "-")
    folder.mkdir(parents=True, exist_ok=True)
    # Every answer is read and every record checked before anything is written: a round is
    # filed whole or not at all.
    missing, updates = [], []
    for entry in index["cases"]:
        number, case = entry["number"], entry["case"]
        answer_path = args.answers / f"{number}.json"
        if not answer_path.exists():
            missing.append(number)
            continue
        try:
            answer = json.loads(answer_path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as error:
            print(f"{answer_path}: not JSON ({error})", file=sys.stderr)
            return 1
        if not isinstance(answer, dict):
            print(f"{answer_path}: not one JSON object", file=sys.stderr)
            return 1
        message = (args.export / "for-model/messages" / f"{number}.json").read_text(encoding="utf-8")
        path = folder / f"{case}.json"
        if path.exists():
            record = json.loads(path.read_text(encoding="utf-8"))
            if record["prompt_sha256"] != index["prompt_sha256"]:
                print(f"{path}: answers to another text of {index['prompt_version']}", file=sys.stderr)
                return 1
            if record["user_message"] != message:
                print(f"{path}: the case's message changed since its answers", file=sys.stderr)
                return 1
        else:
            record = {
                "case": case,
                "prompt_version": index["prompt_version"],
                "prompt_sha256": index["prompt_sha256"],
                "schema_id": index["schema_id"],
                "schema_sha256": index["schema_sha256"],
                "user_message": message,
                "answers": [],
            }
        if any(a["round"] == args.round for a in record["answers"]):
            print(f"{path}: round {args.round} is already filed", file=sys.stderr)
            return 1
        record["answers"].append({"round": args.round, "source": args.source, "answer": answer})
        record["answers"].sort(key=lambda a: a["round"])
        updates.append((path, record))
    if missing:
        print(f"no answer for messages {', '.join(missing)}; nothing filed", file=sys.stderr)
        return 1
    for path, record in updates:
        path.write_text(json.dumps(record, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(f"round {args.round}: {len(index['cases'])} answers filed in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
