//! Printing outcomes: the request text on stdout (so it can be piped or copied as it is), and
//! everything said to the resident about it on stderr.

use std::io::Write;

use zayavka_core::Outcome;
use zayavka_core::outcome::Report;

/// How many findings of a rejection the text output lists.
const FINDINGS_SHOWN: usize = 5;

/// Prints an outcome as text, or as one JSON object with `--json`.
pub fn print_outcome(outcome: &Outcome, report: Report<'_>, json: bool) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut stdout, &report)?;
        writeln!(stdout)?;
        return Ok(());
    }
    let mut stderr = std::io::stderr().lock();
    match outcome {
        Outcome::Ready(request) => {
            writeln!(stdout, "{}\n\n{}", request.title, request.body)?;
            for warning in &request.warnings {
                writeln!(stderr, "Обратите внимание: {warning}")?;
            }
            if let Some(omission) = request.legal_omission {
                writeln!(stderr, "{}", omission.message_ru())?;
            }
        }
        Outcome::NeedsUser { hints, .. } => {
            writeln!(stderr, "{}", outcome.message_ru())?;
            for hint in hints {
                writeln!(stderr, "— {hint}")?;
            }
        }
        Outcome::Rejected(rejection) => {
            writeln!(stderr, "{}", outcome.message_ru())?;
            writeln!(stderr, "Подробности проверки:")?;
            for finding in rejection.findings.iter().take(FINDINGS_SHOWN) {
                let place = if finding.field.is_empty() {
                    "ответ"
                } else {
                    &finding.field
                };
                writeln!(stderr, "— {place}: {}", finding.message)?;
            }
            if rejection.findings.len() > FINDINGS_SHOWN {
                let more = rejection.findings.len() - FINDINGS_SHOWN;
                writeln!(stderr, "— и ещё {more} (все — в выводе с --json).")?;
            }
        }
        _ => {
            writeln!(stderr, "{}", outcome.message_ru())?;
        }
    }
    Ok(())
}
