//! Printing outcomes: the request text on stdout (so it can be piped or copied as it is), and
//! everything said to the resident about it on stderr.

use std::io::Write;

use zayavka_core::Outcome;
use zayavka_core::outcome::Report;

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
        _ => {
            writeln!(stderr, "{}", outcome.message_ru())?;
        }
    }
    Ok(())
}
