#!/usr/bin/env python3
"""Writes the checked-in seed corpora of the fuzz targets (fuzz/seeds/<target>/) from the
repository's own fixtures and a few hand-made files: small, one file per shape that matters.

Run from anywhere: python3 fuzz/make-seeds.py. This script leaves two targets alone:
`input_contract` has no seeds (its bytes are `arbitrary`'s), and the `replay` seeds are real
context records — `zayavka draft --input … --record lighting-record.json` against the stand-in
serving `tests/eval/faithful/emotional-dark-stairs-fear.json`, and the same record with its
messages cut to 40 characters (`short-messages.json`).
"""

import io
import json
import pathlib
import shutil
import struct
import zipfile
import zlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEEDS = ROOT / "fuzz" / "seeds"
GENERATED = [
    "input_json", "model_reply", "envelope_chat", "envelope_responses",
    "envelope_gigachat_token", "batch_csv", "batch_xlsx", "batch_jsonl", "photo", "config",
]


def write(target, name, data):
    folder = SEEDS / target
    folder.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    (folder / name).write_bytes(data)


def inputs():
    cases = sorted((ROOT / "tests" / "eval" / "cases").glob("*.json"))
    for path in cases[::4]:
        case = json.loads(path.read_text("utf-8"))
        yield path.stem, case["input"]


def answers():
    for path in sorted((ROOT / "tests" / "eval" / "faithful").glob("*.json"))[::5]:
        yield path.stem, path.read_text("utf-8")


def rows_csv(delimiter):
    header = ["Квартира", "description", "location", "consequences", "desired_actions"]
    rows = [
        ["12", "В подъезде неделю не горит свет", "Подъезд 2", "", "Прошу заменить лампы"],
        ["40", "Течёт крыша над кв. 40; \"сильно\"", "", "Мокрый потолок", ""],
        ["", "", "", "", ""],
        ["7", "Лифт стоит\nс понедельника", "Подъезд 1", "", ""],
    ]
    out = io.StringIO()
    for row in [header, *rows]:
        cells = []
        for cell in row:
            if any(c in cell for c in (delimiter, '"', "\n")):
                cell = '"' + cell.replace('"', '""') + '"'
            cells.append(cell)
        out.write(delimiter.join(cells) + "\r\n")
    return out.getvalue()


def xlsx(rows):
    shared = []
    sheet_rows = []
    for r, row in enumerate(rows, start=1):
        cells = []
        for c, value in enumerate(row):
            ref = f"{chr(ord('A') + c)}{r}"
            if isinstance(value, (int, float)):
                cells.append(f'<c r="{ref}"><v>{value}</v></c>')
            else:
                shared.append(value)
                cells.append(f'<c r="{ref}" t="s"><v>{len(shared) - 1}</v></c>')
        sheet_rows.append(f'<row r="{r}">{"".join(cells)}</row>')
    ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    files = {
        "[Content_Types].xml": (
            '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
            '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
            "</Types>"),
        "_rels/.rels": (
            '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="rId1" Type="{rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>'),
        "xl/workbook.xml": (
            f'<?xml version="1.0" encoding="UTF-8"?><workbook {ns} xmlns:r="{rel}">'
            '<sheets><sheet name="Заявки" sheetId="1" r:id="rId1"/></sheets></workbook>'),
        "xl/_rels/workbook.xml.rels": (
            '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="rId1" Type="{rel}/worksheet" Target="worksheets/sheet1.xml"/>'
            f'<Relationship Id="rId2" Type="{rel}/sharedStrings" Target="sharedStrings.xml"/></Relationships>'),
        "xl/worksheets/sheet1.xml": (
            f'<?xml version="1.0" encoding="UTF-8"?><worksheet {ns}><sheetData>'
            + "".join(sheet_rows) + "</sheetData></worksheet>"),
        "xl/sharedStrings.xml": (
            f'<?xml version="1.0" encoding="UTF-8"?><sst {ns} count="{len(shared)}" uniqueCount="{len(shared)}">'
            + "".join(f"<si><t>{s.replace('&', '&amp;').replace('<', '&lt;')}</t></si>" for s in shared)
            + "</sst>"),
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, text)
    return out.getvalue()


def png(width, height):
    def chunk(kind, body):
        data = kind + body
        return struct.pack(">I", len(body)) + data + struct.pack(">I", zlib.crc32(data))
    raw = b"".join(b"\x00" + bytes([x * 40 % 256, 90, 200]) * width for x in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"tEXt", b"Comment\x00seed") + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def main():
    for target in GENERATED:
        shutil.rmtree(SEEDS / target, ignore_errors=True)

    for name, value in inputs():
        write("input_json", f"{name}.json", json.dumps(value, ensure_ascii=False, indent=1))
    write("input_json", "bom-duplicate.json", "\ufeff{\"description\": \"a\", \"description\": \"b\"}")

    for name, text in answers():
        write("model_reply", f"{name}.json", b"\x00" + text.encode("utf-8"))
    write("model_reply", "length.json", b"\x01" + "{\"outcome\": \"draft\", \"title\": \"Не".encode())

    content = json.dumps(json.loads(next(answers())[1]), ensure_ascii=False)
    chat = {"id": "c1", "object": "chat.completion", "model": "m",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                         "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 1200, "completion_tokens": 180, "total_tokens": 1380}}
    write("envelope_chat", "ok.json", json.dumps(chat, ensure_ascii=False))
    refused = {"choices": [{"message": {"role": "assistant", "content": None, "refusal": "Нет."},
                            "finish_reason": "stop"}]}
    write("envelope_chat", "refusal.json", json.dumps(refused, ensure_ascii=False))
    write("envelope_chat", "error.json", '{"error": {"message": "quota", "type": "insufficient_quota", "code": 429}}')
    write("envelope_chat", "length.json", '{"choices":[{"message":{"content":"{\\"out"},"finish_reason":"length"}]}')
    write("envelope_chat", "gigachat.json", json.dumps(
        {"choices": [{"message": {"role": "assistant", "content": content}, "index": 0, "finish_reason": "stop"}],
         "created": 1, "model": "GigaChat:1.0", "object": "chat.completion",
         "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}, ensure_ascii=False))

    responses = {"id": "r1", "object": "response", "status": "completed",
                 "output": [{"type": "message", "role": "assistant",
                             "content": [{"type": "output_text", "text": content}]}],
                 "usage": {"input_tokens": 1200, "output_tokens": 180, "total_tokens": 1380}}
    write("envelope_responses", "ok.json", json.dumps(responses, ensure_ascii=False))
    write("envelope_responses", "incomplete.json", json.dumps(
        {"object": "response", "status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"},
         "output": [{"type": "reasoning", "summary": []}]}))
    write("envelope_responses", "refusal.json", json.dumps(
        {"object": "response", "status": "completed",
         "output": [{"type": "message", "content": [{"type": "refusal", "refusal": "Нет."}]}]}, ensure_ascii=False))
    write("envelope_responses", "output-text.json", json.dumps({"output_text": content}, ensure_ascii=False))

    write("envelope_gigachat_token", "ok.json", '{"access_token": "eyJhbGciOi.seed.token", "expires_at": 1796000000000}')
    write("envelope_gigachat_token", "seconds.json", '{"access_token": "t", "expires_at": 1796000000}')
    write("envelope_gigachat_token", "error.json", '{"code": 6, "message": "credentials doesn\'t match db data"}')

    for name, delimiter in [("semicolon", ";"), ("comma", ","), ("tab", "\t"), ("pipe", "|")]:
        text = rows_csv(delimiter)
        write("batch_csv", f"{name}-utf8.csv", text)
        write("batch_csv", f"{name}-bom.csv", "\ufeff" + text)
        write("batch_csv", f"{name}-cp1251.csv", text.encode("cp1251"))

    header = ["Квартира", "description", "location", "consequences", "desired_actions", "confirmed_subject"]
    write("batch_xlsx", "rows.xlsx", xlsx([header, [12, "Не горит свет", "Подъезд 2", "", "заменить лампы",
                                                  "common_area_premises_lighting"],
                                           [40.5, "Течёт крыша", "", "Мокрый потолок", "", ""]]))
    write("batch_xlsx", "header-only.xlsx", xlsx([header]))

    lines = [json.dumps(value, ensure_ascii=False) for _, value in inputs()]
    write("batch_jsonl", "rows.jsonl", "\n".join(lines[:6]) + "\n")
    write("batch_jsonl", "crlf-blank.jsonl", "\r\n\r\n".join(lines[6:9]) + "\r\n")

    for photo in (ROOT / "tests" / "fixtures" / "photos").glob("*.*"):
        if photo.suffix in (".jpg", ".png"):
            write("photo", photo.name, photo.read_bytes())
    write("photo", "small.png", png(6, 4))

    write("config", "openai.toml", 'active_profile = "openai"\n\n[profiles.openai]\nkind = "openai"\nmodel = "gpt-4o-mini"\n'
          'timeout_secs = 60\nattempts = 3\nprice_input_per_million = 0.15\nprice_output_per_million = 0.6\n')
    write("config", "local.toml", 'active_profile = "local"\n\n[profiles.local]\nkind = "llamacpp"\nbase_url = '
          '"http://127.0.0.1:8080/v1"\nschema_mode = "json_object"\n')
    write("config", "gigachat.toml", 'active_profile = "giga"\n\n[profiles.giga]\nkind = "gigachat"\n'
          'scope = "GIGACHAT_API_PERS"\nmodel = "GigaChat-2"\n\n[profiles.yandex]\nkind = "yandex"\n'
          'folder_id = "b1gabcdefghijklmnopq"\nmodel = "yandexgpt-lite"\n')


if __name__ == "__main__":
    main()
