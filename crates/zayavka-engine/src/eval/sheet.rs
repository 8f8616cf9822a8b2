//! The review sheet of a run: one self-contained HTML file (inline CSS and JavaScript, no
//! remote reference of any kind) and the same in Markdown.
//!
//! Case by case, the sheet puts the resident's input beside the request, lists each automatic
//! verdict, and marks each `must_keep` fact pass, fail or «решить» (for a reviewer). In the HTML a
//! reviewer marks facts and saves `marks.json` with the browser's own download (a Blob, no
//! server); placed beside the sheet, the file is counted in the next summary (`--replay`).
//!
//! Every piece of the resident's and the model's text is escaped, and so are `:` and `/`, so
//! that no text in the sheet, however hostile, can become markup, a link or a reference.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use zayavka_core::Verdict;

use super::EvalError;
use super::report::{CaseResult, EvalReport, HardVerdict, MARKS_FILE, Marks, ProfileSummary};

/// The sheet's two files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetFiles {
    /// The HTML sheet.
    pub html: PathBuf,
    /// The Markdown sheet.
    pub markdown: PathBuf,
    /// Where a reviewer's marks are read from.
    pub marks: PathBuf,
}

/// Writes `sheet.html` and `sheet.md` into `dir` (created if needed), with `marks` (read from
/// the same folder) shown as already marked.
pub fn write_sheet(
    report: &EvalReport,
    marks: Option<&Marks>,
    dir: &Path,
) -> Result<SheetFiles, EvalError> {
    let error = |path: &Path, error: std::io::Error| EvalError::Sheet {
        path: path.to_owned(),
        message: format!("не записан ({error}); укажите папку, куда можно писать"),
    };
    std::fs::create_dir_all(dir).map_err(|e| error(dir, e))?;
    let files = SheetFiles {
        html: dir.join("sheet.html"),
        markdown: dir.join("sheet.md"),
        marks: dir.join(MARKS_FILE),
    };
    crate::paths::replace_file(&files.html, render_html(report, marks).as_bytes())
        .map_err(|e| error(&files.html, e))?;
    crate::paths::replace_file(&files.markdown, render_markdown(report).as_bytes())
        .map_err(|e| error(&files.markdown, e))?;
    Ok(files)
}

/// Text for HTML: the markup characters, and `:` and `/`, as character references.
fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            ':' => out.push_str("&#58;"),
            '/' => out.push_str("&#47;"),
            c => out.push(c),
        }
    }
    out
}

/// Text for Markdown: one line, with every character that could start markup, a link or an
/// autolink escaped.
fn md(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '!' | ':' | '#' | '~' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

fn check_label(check: &str) -> &'static str {
    match check {
        "outcome" => "Исход",
        "subject" => "Предмет",
        "subject_not" => "Не похожий предмет",
        "module_included" => "Правовой абзац",
        "warning_expected" => "Предупреждение",
        "item" => "Пункт «Прошу:»",
        "must_not_contain" => "Запрещённые фразы",
        "negations" => "Отрицания случая",
        "faithfulness.numbers" => "Новые числа, даты, сроки",
        "faithfulness.cause_and_repair" => "Причины, материалы, подрядчики, способы ремонта",
        "faithfulness.groups" => "Новые группы людей",
        "faithfulness.negations" => "Перевёрнутые отрицания",
        "faithfulness.content_words" => "Новые слова",
        "case_input" => "Вход случая",
        _ => "Проверка",
    }
}

fn verdict_label(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Pass => "да",
        Verdict::Fail => "нет",
        Verdict::Unsure => "решить",
    }
}

fn verdict_class(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Pass => "pass",
        Verdict::Fail => "fail",
        Verdict::Unsure => "unsure",
    }
}

fn percent(rate: f64) -> String {
    format!("{:.0} %", rate * 100.0)
}

fn money(summary: &ProfileSummary) -> String {
    summary.cost.map_or_else(
        || "—".to_owned(),
        |cost| crate::settings::money_text(cost, summary.currency.as_deref(), 4),
    )
}

fn prompt_line(report: &EvalReport) -> String {
    let field = |name: &str| {
        report
            .plan
            .get(name)
            .and_then(|value| value.as_str())
            .unwrap_or("—")
            .to_owned()
    };
    let sha = field("prompt_sha256");
    format!(
        "{} (SHA-256 {}…)",
        field("prompt_version"),
        sha.get(..12).unwrap_or(&sha)
    )
}

const STYLE: &str = "
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:1em;color:#1b1b1b}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.25em .5em;
vertical-align:top;text-align:left}th{background:#f3f3f3}
.pass{color:#0a6b2a}.fail{color:#b00020;font-weight:600}.unsure{color:#8a5a00}
.grid{display:grid;grid-template-columns:1fr 1fr;gap:1em}
.grid pre,.grid dl{white-space:pre-wrap;background:#fafafa;border:1px solid #e3e3e3;padding:.5em;
margin:0}dt{font-weight:600}dd{margin:0 0 .4em 0}
article{border:1px solid #ddd;border-radius:6px;padding:.75em;margin:.75em 0}
article.hard-fail{border-color:#b00020}.notes{color:#555;font-style:italic}
.bar{position:sticky;bottom:0;background:#fff;border-top:1px solid #ccc;padding:.5em}
button{font:inherit;padding:.3em .8em}
";

const SCRIPT: &str = r#"
(function () {
  var run = document.body.getAttribute('data-run');
  var saved = JSON.parse(document.getElementById('marks').textContent || '{"marks":[]}');
  var key = function (m) { return [m.case, m.profile, m.repeat, m.fact].join('\u0000'); };
  var known = {};
  (saved.marks || []).forEach(function (m) { known[key(m)] = m.verdict; });
  var facts = document.querySelectorAll('li.fact');
  facts.forEach(function (li) {
    var m = { case: li.dataset.case, profile: li.dataset.profile,
              repeat: Number(li.dataset.repeat), fact: li.dataset.fact };
    var verdict = known[key(m)];
    if (verdict) {
      var input = li.querySelector('input[value="' + verdict + '"]');
      if (input) { input.checked = true; }
    }
  });
  var count = function () {
    return document.querySelectorAll('li.fact input:checked').length;
  };
  var status = document.getElementById('status');
  var show = function () { status.textContent = 'Отмечено фактов: ' + count() + '.'; };
  document.addEventListener('change', show);
  show();
  document.getElementById('save').addEventListener('click', function () {
    var marks = [];
    facts.forEach(function (li) {
      var checked = li.querySelector('input:checked');
      if (!checked) { return; }
      marks.push({ case: li.dataset.case, profile: li.dataset.profile,
                   repeat: Number(li.dataset.repeat), fact: li.dataset.fact,
                   verdict: checked.value });
    });
    var text = JSON.stringify({ run: run, marks: marks }, null, 2) + '\n';
    var blob = new Blob([text], { type: 'application/json' });
    var link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = 'marks.json';
    document.body.appendChild(link);
    link.click();
    setTimeout(function () { URL.revokeObjectURL(link.href); link.remove(); }, 0);
    status.textContent = 'Сохранено отметок: ' + marks.length +
      '. Положите marks.json в папку этого листа: следующий отчёт их учтёт.';
  });
})();
"#;

/// The sheet in HTML: one file, nothing loaded from anywhere.
pub fn render_html(report: &EvalReport, marks: Option<&Marks>) -> String {
    let run = report.run.as_deref().unwrap_or("план");
    let mut out = String::new();
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"ru\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>Лист проверки оценки {run}</title>\n<style>{STYLE}</style>\n</head>\n\
         <body data-run=\"{run}\">\n<h1>Лист проверки прогона оценки {run}</h1>\n",
        run = html(run)
    );
    let _ = writeln!(
        out,
        "<p>Инструкция для модели: {}. Ответов: {}.{}{}</p>",
        html(&prompt_line(report)),
        report.results.len(),
        if report.stopped {
            " Прогон остановлен до конца: в листе только полученные ответы."
        } else {
            ""
        },
        if report.missing_cases.is_empty() {
            String::new()
        } else {
            format!(
                " Случаев нет в папке, их ответы не проверены: {}.",
                html(&report.missing_cases.join(", "))
            )
        }
    );
    out.push_str(
        "<p>Жёсткие проверки — исход, предмет, правовой абзац, предупреждение и пункт «Прошу:». \
         «Решить» — проверка не может сказать сама: решает проверяющий. Отметьте факты, \
         которые автоматическая проверка не решила (или решила неверно), и сохраните \
         отметки кнопкой внизу.</p>\n",
    );
    summary_html(&mut out, &report.summary);
    let mut current_case = "";
    for result in &report.results {
        if result.case != current_case {
            current_case = &result.case;
            let _ = writeln!(
                out,
                "<h2 id=\"case-{id}\">Случай {id}</h2>",
                id = html(&result.case)
            );
            if let Some(notes) = &result.view.notes {
                let _ = writeln!(out, "<p class=\"notes\">{}</p>", html(notes));
            }
        }
        result_html(&mut out, result);
    }
    let saved = marks.cloned().unwrap_or_else(|| Marks {
        run: run.to_owned(),
        marks: Vec::new(),
    });
    // JSON inside a script element: «<» escaped so no text can close the element.
    let saved_json = serde_json::to_string(&saved)
        .unwrap_or_else(|_| "{\"marks\":[]}".to_owned())
        .replace('<', "\\u003c");
    let _ = write!(
        out,
        "<div class=\"bar\"><button id=\"save\" type=\"button\">Сохранить отметки</button> \
         <span id=\"status\"></span></div>\n\
         <script id=\"marks\" type=\"application/json\">{saved_json}</script>\n\
         <script>{SCRIPT}</script>\n</body>\n</html>\n"
    );
    out
}

/// The columns of the summary, as the sheet and the command line label them.
pub const SUMMARY_COLUMNS: [&str; 9] = [
    "Профиль",
    "Ответов",
    "Жёсткие проверки",
    "Стабильные случаи",
    "Выдуманное",
    "Новые слова",
    "Факты: сохранено / потеряно / решить (отмечено)",
    "Стоимость",
    "Задержка, медиана / макс.",
];

/// One profile's summary as the text of each column of [`SUMMARY_COLUMNS`], unescaped.
pub fn summary_cells(line: &ProfileSummary) -> [String; 9] {
    [
        line.profile.clone(),
        line.answers.to_string(),
        format!(
            "{} из {} ({})",
            line.hard_passed,
            line.answers,
            percent(line.hard_pass_rate)
        ),
        format!(
            "{} из {} ({})",
            line.stable_cases,
            line.cases,
            percent(line.stability)
        ),
        line.invented_content.to_string(),
        line.new_words.to_string(),
        format!(
            "{} / {} / {} ({})",
            line.must_keep.kept,
            line.must_keep.lost,
            line.must_keep.unsure,
            line.must_keep.reviewed
        ),
        money(line),
        format!("{} / {} мс", line.latency_ms.median, line.latency_ms.max),
    ]
}

fn summary_html(out: &mut String, summary: &[ProfileSummary]) {
    out.push_str("<h2>Итоги по профилям</h2>\n<table>\n<tr>");
    for column in SUMMARY_COLUMNS {
        let _ = write!(out, "<th>{}</th>", html(column));
    }
    out.push_str("</tr>\n");
    for line in summary {
        out.push_str("<tr>");
        for cell in summary_cells(line) {
            let _ = write!(out, "<td>{}</td>", html(&cell));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
}

fn result_html(out: &mut String, result: &CaseResult) {
    let hard = match result.hard {
        HardVerdict::Pass => "<span class=\"pass\">жёсткие проверки пройдены</span>",
        HardVerdict::Fail => "<span class=\"fail\">жёсткая проверка не пройдена</span>",
    };
    let _ = writeln!(
        out,
        "<article class=\"{}\"><h3>{} · повтор {} · исход {}{} · {hard}</h3>",
        if result.hard == HardVerdict::Fail {
            "hard-fail"
        } else {
            "hard-pass"
        },
        html(&result.profile),
        result.repeat,
        html(&result.outcome),
        result
            .reason
            .as_deref()
            .map_or_else(String::new, |reason| format!(" ({})", html(reason)))
    );
    out.push_str("<div class=\"grid\"><div><h4>Что написал житель</h4><dl>");
    let input = &result.view.input;
    for (label, value) in [
        ("Описание", &input.description),
        ("Место", &input.location),
        ("Последствия", &input.consequences),
        ("Что сделать", &input.desired_actions),
        ("Подтверждённый предмет", &input.confirmed_subject),
    ] {
        if let Some(value) = value {
            let _ = write!(out, "<dt>{label}</dt><dd>{}</dd>", html(value));
        }
    }
    out.push_str("</dl></div><div><h4>Заявка</h4>");
    match (&result.view.request_text, &result.view.why_not) {
        (Some(text), _) => {
            let _ = write!(out, "<pre>{}</pre>", html(text));
        }
        (None, why) => {
            let _ = write!(
                out,
                "<pre>Заявки нет. {}</pre>",
                html(why.as_deref().unwrap_or(""))
            );
        }
    }
    if let Some(draft) = &result.view.draft
        && result.view.request_text.is_none()
    {
        let text = super::checks::model_text(draft);
        if !text.is_empty() {
            let _ = write!(out, "<h4>Текст модели</h4><pre>{}</pre>", html(&text));
        }
    }
    out.push_str(
        "</div></div>\n<table><tr><th>Проверка</th><th>Вердикт</th><th>Подробности</th></tr>",
    );
    for check in &result.checks {
        let _ = write!(
            out,
            "<tr><td>{}</td><td class=\"{}\">{}</td><td>{}</td></tr>",
            check_label(check.check),
            verdict_class(check.verdict),
            verdict_label(check.verdict),
            html(check.detail.as_deref().unwrap_or(""))
        );
    }
    out.push_str("</table>\n");
    if !result.must_keep.is_empty() {
        out.push_str("<h4>Факты, которые нужно сохранить</h4><ul>");
        for (index, fact) in result.must_keep.iter().enumerate() {
            let name = format!(
                "{}|{}|{}|{index}",
                result.case, result.profile, result.repeat
            );
            let _ = write!(
                out,
                "<li class=\"fact\" data-case=\"{case}\" data-profile=\"{profile}\" \
                 data-repeat=\"{repeat}\" data-fact=\"{fact}\">«{fact}» — \
                 <span class=\"{class}\">{verdict}</span> ({detail}) \
                 <label><input type=\"radio\" name=\"{name}\" value=\"pass\"> сохранён</label> \
                 <label><input type=\"radio\" name=\"{name}\" value=\"fail\"> потерян</label></li>",
                case = html(&result.case),
                profile = html(&result.profile),
                repeat = result.repeat,
                fact = html(&fact.fact),
                class = verdict_class(fact.verdict),
                verdict = verdict_label(fact.verdict),
                detail = html(&fact.detail),
                name = html(&name)
            );
        }
        out.push_str("</ul>");
    }
    out.push_str("</article>\n");
}

/// The sheet in Markdown: the summary table, then each answer's verdicts and facts.
pub fn render_markdown(report: &EvalReport) -> String {
    let run = report.run.as_deref().unwrap_or("план");
    let mut out = String::new();
    let _ = writeln!(out, "# Лист проверки прогона оценки {}\n", md(run));
    let _ = writeln!(
        out,
        "Инструкция для модели: {}. Ответов: {}.{}\n",
        prompt_line(report),
        report.results.len(),
        if report.stopped {
            " Прогон остановлен до конца."
        } else {
            ""
        }
    );
    out.push_str("## Итоги по профилям\n\n|");
    for column in SUMMARY_COLUMNS {
        let _ = write!(out, " {column} |");
    }
    out.push_str("\n|");
    out.push_str(&"---|".repeat(SUMMARY_COLUMNS.len()));
    out.push('\n');
    for line in &report.summary {
        out.push('|');
        let [profile, rest @ ..] = summary_cells(line);
        // Only the profile's name is not this program's own text.
        let _ = write!(out, " {} |", md(&profile));
        for cell in rest {
            let _ = write!(out, " {cell} |");
        }
        out.push('\n');
    }
    for result in &report.results {
        let _ = writeln!(
            out,
            "\n## {} · {} · повтор {} — {}{}\n",
            md(&result.case),
            md(&result.profile),
            result.repeat,
            md(&result.outcome),
            if result.hard == HardVerdict::Fail {
                " · **жёсткая проверка не пройдена**"
            } else {
                ""
            }
        );
        if let Some(notes) = &result.view.notes {
            let _ = writeln!(out, "*{}*\n", md(notes));
        }
        let input = &result.view.input;
        if let Some(description) = &input.description {
            let _ = writeln!(out, "- Житель: {}", md(description));
        }
        for (label, value) in [
            ("Место", &input.location),
            ("Последствия", &input.consequences),
            ("Что сделать", &input.desired_actions),
        ] {
            if let Some(value) = value {
                let _ = writeln!(out, "- {label}: {}", md(value));
            }
        }
        match &result.view.request_text {
            Some(text) => {
                let _ = writeln!(out, "- Заявка: {}", md(text));
            }
            None => {
                let _ = writeln!(
                    out,
                    "- Заявки нет: {}",
                    md(result.view.why_not.as_deref().unwrap_or(""))
                );
            }
        }
        out.push_str("\n| Проверка | Вердикт | Подробности |\n|---|---|---|\n");
        for check in &result.checks {
            let _ = writeln!(
                out,
                "| {} | {} | {} |",
                check_label(check.check),
                verdict_label(check.verdict),
                md(check.detail.as_deref().unwrap_or(""))
            );
        }
        if !result.must_keep.is_empty() {
            out.push('\n');
            for fact in &result.must_keep {
                let _ = writeln!(
                    out,
                    "- [{}] «{}» — {} ({})",
                    match fact.verdict {
                        Verdict::Pass => "x",
                        _ => " ",
                    },
                    md(&fact.fact),
                    verdict_label(fact.verdict),
                    md(&fact.detail)
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_text_cannot_become_markup_or_a_reference() {
        let text = "<img src=\"https://evil.example/x.png\"> [a](//evil) ![b](http://e)";
        let escaped = html(text);
        assert!(!escaped.contains('<'), "{escaped}");
        assert!(!escaped.contains("http:"), "{escaped}");
        assert!(!escaped.contains("//"), "{escaped}");
        let markdown = md(text);
        // No markup, image or link syntax survives: every bracket is escaped, so «[a](…)» is
        // text; a bare address stays text (a viewer may show it as a link, nothing is loaded).
        let chars: Vec<char> = markdown.chars().collect();
        for (at, c) in chars.iter().enumerate() {
            if matches!(c, '[' | ']' | '!') {
                assert!(at > 0 && chars[at - 1] == '\\', "{markdown}");
            }
        }
        assert!(!markdown.contains('<'), "{markdown}");
    }
}
