#!/usr/bin/env python3
"""A resident's and an activist's Windows, end to end, under Wine (issue 29).

Run by tests/windows/run.sh after `scripts/windows.sh build`; every step runs the installed
Windows programs in a Wine prefix of its own, with the Windows stand-in provider on 127.0.0.1:

 1. the installer, silently (/S): the program files, the Start-menu entries, the uninstall entry;
 2. the installed `zayavka.exe --version` and a draft without a model;
 3. `config init` typed into the Windows console (a local server, the stand-in), `key set
    --stdin` into the Windows Credential Manager, `key status`; the key in no file;
 4. a draft with the model, `drafts list`, `search`, `show`;
 5. PDF, DOCX and TXT exports into a folder with a Cyrillic name and spaces, byte for byte what
    the Linux build writes for the same draft and date when it is built (target/debug/zayavka);
 6. a batch from a Windows-1251 CSV with `;` and CRLF as Excel saves it, killed midway with
    `taskkill /F` and resumed: every row ready once;
 7. a backup, restored as on a new computer;
 8. what differs on Windows: Russian in the console under code page 866 and UTF-8 when
    redirected; a document another program holds open; file names Windows would not keep;
    Ctrl+C during a draft and a batch; paths with forward slashes, `\\\\?\\` and over 260
    characters; a relative path;
 9. nothing written outside AppData and the folders the resident named;
10. a newer installer, signed with a throw-away certificate as a release is, over the first
    with every draft kept and every program signed, then the uninstaller: the program gone, the
    resident's data kept;
11. the desktop app started with no WebView2 (Wine has none): the Russian dialog at 100 % and
    at 200 % display scale, screenshots kept as target/windows-test/webview2-missing.png and
    webview2-missing-200.png.
"""

import io
import json
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import time
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
TARGET = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
WINDOWS = TARGET / "windows"
# `--debug`: the installer and the stand-in of `scripts/windows.sh build --debug` (what CI
# tests, reusing the build of the Windows tests); otherwise the release build's.
DEBUG = "--debug" in sys.argv[1:]
BINARIES = WINDOWS / "x86_64-pc-windows-gnu" / ("debug" if DEBUG else "release")
OUT = TARGET / "windows-test"
WINE = "/usr/lib/wine/wine64"
DESCRIPTION = "В подъезде неделю не горит свет на лестнице между третьим и четвёртым этажами."
REPLY = {
    "outcome": "draft",
    "title": "Не работает освещение на лестнице",
    "problem": "На лестнице между третьим и четвёртым этажами неделю не горит свет",
    "circumstances": None,
    "impact": "В темноте на лестнице плохо видно ступени",
    "verification": "Причину нужно установить при осмотре",
    "subject": {
        "kind": "common_area_premises_lighting",
        "evidence": [{"source_field": "description", "quote": "неделю не горит свет на лестнице"}],
    },
    "warnings": [],
}
CANARY = "sk-windows-canary-0123456789abcdef"
VERSION = next(
    line.split('"')[1]
    for line in (ROOT / "Cargo.toml").read_text().split("[workspace.package]")[1].splitlines()
    if line.startswith("version = ")
)

steps = 0


def step(text):
    global steps
    steps += 1
    print(f"-- {steps}. {text}", flush=True)


def fail(text):
    print(f"windows flow: {text}", file=sys.stderr, flush=True)
    sys.exit(1)


def check(condition, text):
    if not condition:
        fail(text)


def throwaway_certificate(folder):
    """A self-signed code-signing certificate for this run: the .pfx, its password file, the
    PEM to verify against, and the variables packaging/windows/sign.sh reads."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    key, pem, pfx, password = (folder / name for name in
                               ("key.pem", "cert.pem", "cert.pfx", "password"))
    password.write_text(os.urandom(12).hex())
    for command in (["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                     str(key), "-out", str(pem), "-days", "2", "-subj", "/CN=Zayavka test",
                     "-addext", "extendedKeyUsage=codeSigning"],
                    ["openssl", "pkcs12", "-export", "-out", str(pfx), "-inkey", str(key),
                     "-in", str(pem), "-passout", f"file:{password}"]):
        made = subprocess.run(command, capture_output=True)
        check(made.returncode == 0, f"openssl: {made.stderr.decode()}")
    return {"pem": pem, "env": {"WINDOWS_CERTIFICATE_FILE": str(pfx),
                                "WINDOWS_CERTIFICATE_PASSWORD_FILE": str(password)}}


class Wine:
    """The project's Wine prefix for this run, fresh, with the user's folders as Windows names
    them."""

    def __init__(self, prefix):
        self.prefix = prefix
        self.env = dict(os.environ, WINEPREFIX=str(prefix), WINEDEBUG="-all",
                        WINEDLLOVERRIDES="mscoree,mshtml=", LANG="C.UTF-8")
        self.env.pop("DISPLAY", None)
        self.env.pop("ZAYAVKA_HOME", None)
        users = prefix / "drive_c" / "users"
        self.user = next(p for p in users.iterdir() if p.name not in ("Public",) and p.is_dir())
        self.home = "C:\\users\\" + self.user.name
        self.appdata = self.home + "\\AppData\\Roaming"
        self.local = self.home + "\\AppData\\Local"
        self.programs = self.local + "\\Programs\\Zayavka"
        self.zayavka = self.programs + "\\zayavka.exe"

    def unix(self, windows_path):
        """The Linux path of a C:\\ path in this prefix."""
        assert windows_path[:3].upper() == "C:\\", windows_path
        return self.prefix / "drive_c" / windows_path[3:].replace("\\", "/")

    def run(self, *args, stdin=None, env=None, timeout=120):
        environment = dict(self.env, **(env or {}))
        result = subprocess.run([WINE, *args], input=stdin, capture_output=True, env=environment,
                                timeout=timeout)
        return result.returncode, result.stdout.decode("utf-8", "replace"), \
            result.stderr.decode("utf-8", "replace")

    def cli(self, *args, code=0, **kwargs):
        status, out, err = self.run(self.zayavka, *args, **kwargs)
        if code is not None and status != code:
            fail(f"zayavka {' '.join(args)} exited with {status}, not {code}\n{out}\n{err}")
        return out, err

    def cli_json(self, *args, **kwargs):
        out, _ = self.cli(*args, "--json", **kwargs)
        return json.loads(out)

    def start(self, *args, env=None):
        environment = dict(self.env, **(env or {}))
        return subprocess.Popen([WINE, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=environment)

    def registry(self, key, value):
        status, out, _ = self.run("reg", "query", key, "/v", value)
        if status != 0:
            return None
        for line in out.splitlines():
            parts = line.split(None, 2)
            if len(parts) == 3 and parts[0] == value:
                return parts[2].strip()
        return None


class Console:
    """The Windows console of cmd.exe in a terminal (tmux), as a resident types into it."""

    def __init__(self, wine, name, program=None, env=None):
        """cmd.exe, or with `program` (a list) that Windows program alone as the console's
        process, its exit code shown as `EXIT=N` when it ends."""
        self.name = name
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)
        variables = {"WINEPREFIX": wine.prefix, "WINEDEBUG": "-all",
                     "WINEDLLOVERRIDES": "mscoree,mshtml=", "LANG": "C.UTF-8", **(env or {})}
        environment = " ".join(shlex.quote(f"{k}={v}") for k, v in variables.items())
        run = shlex.join([WINE, *(program or ["cmd"])])
        subprocess.run(["tmux", "new-session", "-d", "-s", name, "-x", "220", "-y", "60",
                        f"env -u DISPLAY {environment} {run}; echo EXIT=$?; sleep 600"],
                       check=True)
        if program is None:
            self.wait_for(">")

    def screen(self):
        return subprocess.run(["tmux", "capture-pane", "-p", "-J", "-S", "-2000", "-t", self.name],
                              capture_output=True, check=True).stdout.decode("utf-8", "replace")

    def type(self, text, enter=True):
        subprocess.run(["tmux", "send-keys", "-t", self.name, "-l", text], check=True)
        if enter:
            subprocess.run(["tmux", "send-keys", "-t", self.name, "Enter"], check=True)

    def key(self, key):
        subprocess.run(["tmux", "send-keys", "-t", self.name, key], check=True)

    def wait_for(self, text, timeout=60, after=0, pattern=False):
        """The screen once it shows `text` (a regular expression with `pattern`) past the
        first `after` characters. A marker printed by a command is matched as a pattern that
        the typed command line itself cannot match (`EXIT=%ERRORLEVEL%` → `EXIT=\\d+`)."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            screen = self.screen()
            found = re.search(text, screen[after:]) if pattern else text in screen[after:]
            if found:
                return screen
            time.sleep(0.3)
        fail(f"the console never showed «{text}»:\n{self.screen()}")

    def exit_code(self, after, timeout=60):
        """Waits for cmd's prompt to come back past `after`, then asks for the last exit code
        (cmd expands %ERRORLEVEL% when it reads a line, so it is a line of its own)."""
        self.wait_for(r"(?m)^[A-Z]:\\[^\n]*>\s*$", timeout=timeout, after=after, pattern=True)
        self.type("echo EXIT=%ERRORLEVEL%")
        screen = self.wait_for(r"(?m)^EXIT=\d+\s*$", timeout=30, after=after, pattern=True)
        return int(re.findall(r"(?m)^EXIT=(\d+)\s*$", screen[after:])[-1]), screen

    def close(self):
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)


def same_document(extension, linux, windows):
    """The same bytes; for a DOCX, the same entries with the same bytes (the ZIP's «made by»
    field and file attributes are each platform's own)."""
    if extension != "docx":
        return linux == windows
    with zipfile.ZipFile(io.BytesIO(linux)) as a, zipfile.ZipFile(io.BytesIO(windows)) as b:
        return a.namelist() == b.namelist() and all(a.read(n) == b.read(n) for n in a.namelist())


def snapshot(root):
    files = {}
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            stat = path.stat()
            files[path] = (stat.st_size, stat.st_mtime_ns)
    return files


def main():
    setup = WINDOWS / "installer" / f"zayavka-{VERSION}-setup.exe"
    standin = BINARIES / "zayavka-standin.exe"
    for needed in (setup, standin):
        check(needed.is_file(), f"{needed} is missing: run bash scripts/windows.sh build")
    for tool in ("tmux", "x86_64-w64-mingw32-gcc", "xvfb-run", "xdotool", "import"):
        check(shutil.which(tool), f"{tool} is missing: run .ci/run, or apt-get install tmux "
              "gcc-mingw-w64-x86-64 xvfb xdotool imagemagick")
    prefix = OUT / "prefix"
    # A Wine server left from an earlier run would write its old registry into the new prefix.
    subprocess.run(["/usr/lib/wine/wineserver", "-k"], capture_output=True,
                   env=dict(os.environ, WINEPREFIX=str(prefix)))
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    subprocess.run(["bash", str(ROOT / "scripts" / "windows.sh"), "prefix"], check=True,
                   env=dict(os.environ, WINEPREFIX=str(prefix)))
    wine = Wine(prefix)
    helper = OUT / "holdopen.exe"
    subprocess.run(["x86_64-w64-mingw32-gcc", "-municode", "-O2", "-o", str(helper),
                    str(ROOT / "tests" / "windows" / "holdopen.c")], check=True)
    user_files_before = snapshot(wine.user)

    step("the installer, silently: program files, Start menu, uninstall entry")
    status, out, err = wine.run(str(setup), "/S")
    check(status == 0, f"the installer exited with {status}: {out}{err}")
    for name in ("zayavka-desktop.exe", "zayavka.exe", "WebView2Loader.dll", "uninstall.exe",
                 "LICENSE.txt"):
        check(wine.unix(wine.programs + "\\" + name).is_file(), f"{name} was not installed")
    menu = wine.unix(wine.appdata + "\\Microsoft\\Windows\\Start Menu\\Programs")
    for shortcut in ("Заявка.lnk", "Заявка — командная строка.lnk"):
        check((menu / shortcut).is_file(), f"the Start menu has no {shortcut}")
    uninstall_key = "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\ru.zayavka.desktop"
    check(wine.registry(uninstall_key, "DisplayVersion") == VERSION, "no uninstall entry")
    print(f"   installed {VERSION}, {setup.stat().st_size} bytes")

    step("the installed zayavka.exe: --version and a draft without a model")
    out, _ = wine.cli("--version")
    check(out.strip() == f"zayavka {VERSION}", out)
    out, _ = wine.cli("draft", "--offline", "--description", DESCRIPTION)
    check("Прошу:\n1. Устранить наблюдаемую проблему." in out, out)

    step("the stand-in on 127.0.0.1; config init in the console; the key in Credential Manager")
    reply = OUT / "reply.json"
    reply.write_text(json.dumps(REPLY, ensure_ascii=False), encoding="utf-8")
    standin_process = wine.start(str(standin), "--content-file", str(reply), "--delay-ms", "1000",
                                 "--exit-on-stdin-close")
    base_url = standin_process.stdout.readline().decode().strip()
    check(base_url.startswith("http://127.0.0.1:"), f"the stand-in said {base_url!r}")
    console = Console(wine, "zayavka-init")
    console.type(f'"{wine.zayavka}" config init')
    console.wait_for("Пока без модели")
    console.type("3")
    console.wait_for("Какая программа запускает модель?")
    console.type("3")
    console.wait_for("Адрес сервера")
    console.type(base_url)
    console.wait_for("Имя модели")
    console.type("stand-in-model")
    screen = console.wait_for("Готово: заявки можно составлять с моделью (llama.cpp).", timeout=90)
    (OUT / "config-init.txt").write_text(screen, encoding="utf-8")
    console.close()
    shown = wine.cli_json("config", "show")
    check(shown["provider"]["kind"] == "llamacpp", json.dumps(shown, ensure_ascii=False))
    wine.cli("key", "set", "--stdin", stdin=(CANARY + "\r\n").encode())
    out, _ = wine.cli("key", "status")
    print("   " + out.strip().replace("\n", "\n   "))
    check("Windows Credential Manager): ключ сохранён" in out,
          f"key status does not say the key is in Credential Manager: {out}")

    step("a draft with the model; drafts list, search, show")
    report = wine.cli_json("draft", "--description", DESCRIPTION, "--subject",
                           "common_area_premises_lighting", "--desired-actions",
                           "Прошу: заменить лампы на лестнице")
    check(report["outcome"] == "ready", json.dumps(report, ensure_ascii=False))
    model_draft = str(report["draft_id"])
    offline = wine.cli_json("draft", "--offline", "--description", DESCRIPTION)
    offline_draft = str(offline["draft_id"])
    listed = wine.cli_json("drafts", "list")
    check(len(listed) == 3, f"{len(listed)} drafts listed")
    found = wine.cli_json("drafts", "search", "лестнице")
    check(len(found) >= 2, f"search found {len(found)}")
    out, _ = wine.cli("drafts", "show", model_draft)
    check("Не работает освещение на лестнице" in out and "Заменить лампы на лестнице." in out, out)

    step("exports to PDF, DOCX and TXT into «Мои заявки 2026», as Linux writes them")
    folder = wine.home + "\\Documents\\Мои заявки 2026"
    wine.unix(folder).mkdir(parents=True, exist_ok=True)
    linux = TARGET / "debug" / "zayavka"
    linux_home = OUT / "linux-home"
    if linux.is_file():
        made = subprocess.run([str(linux), "draft", "--offline", "--json", "--description",
                               DESCRIPTION], capture_output=True,
                              env=dict(os.environ, ZAYAVKA_HOME=str(linux_home)), check=True)
        linux_draft = str(json.loads(made.stdout)["draft_id"])
    for extension in ("pdf", "docx", "txt"):
        target = f"{folder}\\заявка {offline_draft}.{extension}"
        wine.cli("drafts", "export", offline_draft, "--format", extension, "--out", target,
                 "--date", "2026-12-01")
        written = wine.unix(target).read_bytes()
        magic = {"pdf": b"%PDF-", "docx": b"PK\x03\x04", "txt": "".encode()}[extension]
        check(written.startswith(magic) and len(written) > 200, f"{target}: {written[:20]!r}")
        if extension == "txt":
            check("Прошу:" in written.decode("utf-8"), "the text export is not UTF-8")
        if linux.is_file():
            linux_file = OUT / f"linux.{extension}"
            subprocess.run([str(linux), "drafts", "export", linux_draft, "--format", extension,
                            "--out", str(linux_file), "--date", "2026-12-01"],
                           env=dict(os.environ, ZAYAVKA_HOME=str(linux_home)), check=True,
                           capture_output=True)
            check(same_document(extension, linux_file.read_bytes(), written),
                  f"the {extension} written on Windows differs from Linux's")
    print("   the same documents as the Linux build" if linux.is_file()
          else "   (no Linux build at target/debug/zayavka: byte comparison left out)")

    step("a batch from a Windows-1251 CSV with ; and CRLF, killed midway and resumed")
    rows = [f"Иванов И. И.;{n};В подъезде {n} неделю не горит свет на лестнице у квартиры {n}.;"
            f"Подъезд {n}" for n in range(1, 9)]
    csv = "ФИО;Квартира;Описание;Место\r\n" + "\r\n".join(rows) + "\r\n"
    batch_file = f"{wine.home}\\Documents\\Мои заявки 2026\\жильцы подъезда.csv"
    wine.unix(batch_file).write_bytes(csv.encode("cp1251"))
    batch = wine.start(wine.zayavka, "batch", batch_file, "--yes", "--concurrency", "1")
    time.sleep(4)
    wine.run("taskkill", "/F", "/IM", "zayavka.exe")
    batch.wait(timeout=30)
    summary = wine.cli_json("batch", batch_file, "--yes")
    check(summary["ready"] == 8, json.dumps(summary, ensure_ascii=False))
    rows_done = [d for d in wine.cli_json("drafts", "list") if d.get("batch_row")]
    rows = sorted(d["batch_row"] for d in rows_done)
    check(rows == sorted(set(rows)) and len(rows) == 8, f"batch rows {rows}: each once")
    print("   killed with taskkill /F, resumed: 8 rows ready, each once")

    step("a backup, restored as on a new computer")
    backup = f"{wine.home}\\Documents\\Резервная копия\\заявки.sqlite3"
    wine.unix(backup).parent.mkdir(parents=True)
    wine.cli("drafts", "backup", backup)
    new_home = f"{wine.home}\\Documents\\Новый компьютер"
    wine.cli("drafts", "restore", backup, env={"ZAYAVKA_HOME": new_home})
    restored = wine.cli_json("drafts", "list", env={"ZAYAVKA_HOME": new_home})
    check(len(restored) == len(wine.cli_json("drafts", "list")), "the restore lost drafts")

    step("Russian in the console under code page 866, UTF-8 when redirected")
    console = Console(wine, "zayavka-cp866")
    console.type("chcp 866")
    console.wait_for("866")
    redirected = f"{wine.home}\\Documents\\вывод.txt"
    console.type(f'"{wine.zayavka}" drafts show {offline_draft}')
    console.wait_for("Устранить наблюдаемую проблему.")
    console.type(f'"{wine.zayavka}" drafts show {offline_draft} > "{redirected}"')
    time.sleep(3)
    text = wine.unix(redirected).read_bytes().decode("utf-8")
    check("Устранить наблюдаемую проблему." in text, text)
    (OUT / "console-cp866.txt").write_text(console.screen(), encoding="utf-8")
    console.close()

    step("a document another program holds open: a clear message, the file whole")
    held_path = f"{folder}\\заявка {offline_draft}.txt"
    before = wine.unix(held_path).read_bytes()
    holder = wine.start(str(helper), held_path)
    check(holder.stdout.readline().strip() == b"held", "holdopen could not open the file")
    status, out, err = wine.run(wine.zayavka, "drafts", "export", model_draft, "--format", "txt",
                                "--out", held_path)
    holder.stdin.close()
    holder.wait(timeout=30)
    check(status != 0, f"a held file was replaced: {out}{err}")
    check("открыт в другой программе" in err, err)
    check(wine.unix(held_path).read_bytes() == before, "the held file changed")
    leftovers = [p.name for p in wine.unix(folder).iterdir() if p.name.endswith(".tmp")]
    check(not leftovers, f"temporary files left: {leftovers}")
    print("   " + err.strip().splitlines()[-1])

    step("file names Windows would not keep: CON, a trailing dot, a forbidden character")
    for name in ("CON.pdf", "заявка.", "заявка?.pdf"):
        status, _, err = wine.run(wine.zayavka, "drafts", "export", offline_draft, "--format",
                                  "pdf", "--out", f"{folder}\\{name}")
        check(status != 0 and name in err, f"{name}: {status} {err}")
    print("   " + err.strip().splitlines()[-1])

    step("paths: forward slashes, \\\\?\\, a relative path, a folder path over 260 characters")
    forward = folder.replace("\\", "/") + "/прямые слэши.txt"
    wine.cli("drafts", "export", offline_draft, "--format", "txt", "--out", forward)
    check(wine.unix(folder + "\\прямые слэши.txt").is_file(), "forward slashes")
    verbatim = "\\\\?\\" + folder + "\\verbatim.txt"
    wine.cli("drafts", "export", offline_draft, "--format", "txt", "--out", verbatim)
    check(wine.unix(folder + "\\verbatim.txt").is_file(), "\\\\?\\ prefix")
    deep = folder + "".join(f"\\папка номер {n} с длинным названием" for n in range(8))
    wine.unix(deep).mkdir(parents=True)
    long_file = deep + "\\заявка.pdf"
    check(len(long_file) > 260, f"{len(long_file)} characters")
    wine.cli("drafts", "export", offline_draft, "--format", "pdf", "--out", long_file)
    check(wine.unix(long_file).is_file(), "a path over 260 characters")
    console = Console(wine, "zayavka-relative")
    console.type(f'cd /d "{folder}"')
    after = len(console.screen())
    console.type(f'"{wine.zayavka}" drafts export {offline_draft} --format txt --out .\\rel.txt')
    code, screen = console.exit_code(after)
    check(code == 0, screen)
    console.close()
    check(wine.unix(folder + "\\rel.txt").is_file(), "a relative path")

    step("Ctrl+C during a draft and during a batch")
    standin_process.stdin.close()
    standin_process.wait(timeout=30)
    slow = wine.start(str(standin), "--content-file", str(reply), "--delay-ms", "20000",
                      "--exit-on-stdin-close")
    slow_url = slow.stdout.readline().decode().strip()
    # The program is the console's own process, as when a resident starts it from a shortcut's
    # console: Wine's cmd.exe, unlike Windows', ends itself on Ctrl+C.
    console = Console(wine, "zayavka-ctrlc", [wine.zayavka, "draft", "--description", DESCRIPTION],
                      env={"ZAYAVKA_BASE_URL": slow_url})
    console.wait_for("Ctrl-C")
    time.sleep(1)
    started = time.time()
    console.key("C-c")
    screen = console.wait_for(r"(?m)^EXIT=\d+", timeout=30, pattern=True)
    check(time.time() - started < 15, "the draft took long to stop")
    check("EXIT=5" in screen and "отменён" in screen, f"the cancelled draft:\n{screen}")
    check("Ваш текст сохранён в черновике" in screen, screen)
    (OUT / "console-ctrl-c-draft.txt").write_text(screen, encoding="utf-8")
    console.close()
    batch_two = f"{wine.home}\\Documents\\второй пакет.csv"
    wine.unix(batch_two).write_bytes(csv.replace("неделю", "месяц").encode("cp1251"))
    console = Console(wine, "zayavka-ctrlc", [wine.zayavka, "batch", batch_two, "--yes"],
                      env={"ZAYAVKA_BASE_URL": slow_url})
    time.sleep(6)
    console.key("C-c")
    screen = console.wait_for(r"(?m)^EXIT=\d+", timeout=60, pattern=True)
    check("EXIT=0" not in screen, f"the batch stopped by Ctrl+C exited with 0:\n{screen}")
    (OUT / "console-ctrl-c-batch.txt").write_text(screen, encoding="utf-8")
    console.close()
    slow.stdin.close()
    slow.wait(timeout=30)
    cancelled = [d for d in wine.cli_json("drafts", "list") if d["outcome"] in ("failed", "pending")]
    check(cancelled, "the cancelled draft was not kept")
    fast = wine.start(str(standin), "--content-file", str(reply), "--exit-on-stdin-close")
    fast_url = fast.stdout.readline().decode().strip()
    resumed = wine.cli_json("batch", batch_two, "--yes", env={"ZAYAVKA_BASE_URL": fast_url})
    fast.stdin.close()
    fast.wait(timeout=30)
    check(resumed["ready"] == 8, f"the batch stopped by Ctrl+C did not resume: {resumed}")

    step("nothing written outside AppData and the folders named above")
    allowed = [wine.unix(p) for p in (wine.appdata + "\\Zayavka", wine.local + "\\Zayavka",
                                      wine.programs, wine.home + "\\Documents",
                                      wine.appdata + "\\Microsoft\\Windows\\Start Menu",
                                      wine.home + "\\Desktop")]
    changed = [p for p, meta in snapshot(wine.user).items()
               if user_files_before.get(p) != meta
               and not any(p.is_relative_to(a) for a in allowed)
               and "Temp" not in p.parts]
    check(not changed, f"written outside AppData: {changed}")
    data = wine.unix(wine.local + "\\Zayavka\\zayavka\\data\\zayavka.sqlite3")
    check(data.is_file(), f"no database at {data}")
    for path in snapshot(wine.user):
        if path.is_relative_to(wine.unix(wine.appdata + "\\Zayavka")) or \
                path.is_relative_to(wine.unix(wine.local + "\\Zayavka")):
            check(CANARY.encode() not in path.read_bytes(), f"the key is in {path}")

    step("a newer, signed installer over the first keeps every draft; the uninstaller keeps "
         "the data")
    drafts_before = len(wine.cli_json("drafts", "list"))
    newer = "9.9.9"
    # Signed as a release is (packaging/windows/sign.sh), with a throw-away certificate.
    certificate = throwaway_certificate(OUT / "certificate")
    built = subprocess.run(["bash", str(ROOT / "scripts" / "windows.sh"), "installer",
                            "--version", newer, *(["--debug"] if DEBUG else [])],
                           capture_output=True, env=dict(os.environ, **certificate["env"]))
    check(built.returncode == 0, f"the signed installer was not built: {built.stderr.decode()}")
    newer_setup = WINDOWS / "installer" / f"zayavka-{newer}-setup.exe"
    status, out, err = wine.run(str(newer_setup), "/S")
    check(status == 0, f"the upgrade exited with {status}")
    check(wine.registry(uninstall_key, "DisplayVersion") == newer, "the version was not updated")
    check(len(wine.cli_json("drafts", "list")) == drafts_before, "the upgrade lost drafts")
    for signed in [newer_setup, *(wine.unix(wine.programs + "\\" + name) for name in
                                  ("zayavka-desktop.exe", "zayavka.exe", "uninstall.exe"))]:
        verified = subprocess.run(["osslsigncode", "verify", "-in", str(signed), "-CAfile",
                                   str(certificate["pem"])], capture_output=True)
        check(verified.returncode == 0 and b"Signature verification: ok" in verified.stdout,
              f"{signed.name} is not signed: {verified.stdout.decode()}{verified.stderr.decode()}")
    print("   the installer, both programs and the uninstaller carry the signature")
    status, _, _ = wine.run(str(setup), "/S")
    check(status == 2, f"a silent downgrade exited with {status}, not 2")
    wine.run(wine.programs + "\\uninstall.exe", "/S")
    deadline = time.time() + 60
    while wine.unix(wine.programs).exists() and time.time() < deadline:
        time.sleep(0.5)
    check(not wine.unix(wine.programs).exists(), "the program folder is still there")
    check(not (menu / "Заявка.lnk").exists(), "the Start-menu entry is still there")
    check(wine.registry(uninstall_key, "DisplayVersion") is None, "the uninstall entry is left")
    check(data.is_file(), "the uninstaller removed the resident's drafts")

    step("the desktop app without WebView2: the Russian dialog, at 100 % and at 200 %")
    desktop = BINARIES / "zayavka-desktop.exe"
    for dpi, name in ((96, "webview2-missing.png"), (192, "webview2-missing-200.png")):
        # Windows' display scale is the desktop's LogPixels (96 is 100 %).
        wine.run("reg", "add", "HKCU\\Control Panel\\Desktop", "/v", "LogPixels", "/t",
                 "REG_DWORD", "/d", str(dpi), "/f")
        subprocess.run(["/usr/lib/wine/wineserver", "--wait"], env=wine.env, check=False)
        scale = dpi // 96
        shot = OUT / name
        script = f"""
            {WINE} '{desktop}' & app=$!
            for i in $(seq 1 120); do
                window=$(xdotool search --name 'нужен компонент Windows' 2>/dev/null | head -n1)
                [ -n "$window" ] && break
                sleep 0.5
            done
            [ -n "$window" ] || {{ echo 'no dialog'; kill $app; exit 1; }}
            sleep 1
            import -window root '{shot}'
            # «Закрыть», the dialog's rightmost button (no window manager under Xvfb to give
            # the dialog the keyboard), where it is at this scale.
            eval "$(xdotool getwindowgeometry --shell "$window")"
            xdotool mousemove --window "$window" $((WIDTH - 48 * {scale})) \
                $((HEIGHT - 17 * {scale})) click 1
            ( sleep 30; kill $app 2>/dev/null ) & watchdog=$!
            wait $app
            echo "exit=$?"
            kill $watchdog 2>/dev/null || true
        """
        result = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1024x768x24", "bash", "-c",
                                 script], capture_output=True, env=wine.env, timeout=180)
        said = result.stdout.decode("utf-8", "replace")
        check(result.returncode == 0 and "exit=3" in said,
              f"at {dpi} dpi: {said}{result.stderr.decode()}")
        check(shot.is_file(), f"no screenshot at {dpi} dpi")
        print(f"   at {100 * dpi // 96} %: the dialog shown, the app exited with 3; screenshot "
              f"{shot}")

    wine.run("wineboot", "--shutdown")
    print(f"windows flow: all {steps} steps held")


if __name__ == "__main__":
    main()
