//! `zayavka doctor`.

use std::io::Write as _;
use std::process::ExitCode;

use anyhow::Context as _;
use zayavka_engine::{CancellationToken, Check, CheckStatus, Engine};

/// Arguments of `zayavka doctor`.
#[derive(Debug, clap::Args)]
pub struct DoctorArgs {
    /// Вывести результат в JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `zayavka doctor`: exit 0 when nothing needs fixing, 1 otherwise.
pub fn run(args: DoctorArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let environment = engine
        .environment(false)
        .map_err(|error| anyhow::anyhow!(error.to_string()))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("не удалось запустить асинхронную среду")?;
    let today = jiff::Zoned::now().date();
    let checks = runtime.block_on(engine.doctor(environment, today, &CancellationToken::new()));
    let rerun = crate::output::Rerun {
        words: vec!["zayavka".into(), "doctor".into()],
        profile: engine.active_profile_name(),
        is_draft: false,
    };
    let mut stdout = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut stdout, &checks)?;
        writeln!(stdout)?;
    } else {
        write_checks(&mut stdout, &checks, &rerun)?;
    }
    let healthy = checks.iter().all(|c| c.status != CheckStatus::Problem);
    Ok(ExitCode::from(if healthy {
        crate::exit::SUCCESS
    } else {
        crate::exit::PROBLEM
    }))
}

/// The text report: each check's plain message, then — for maintainers — its internal details
/// (module ids, schema hashes, HTTP statuses) on an indented line, then its next steps.
fn write_checks(
    out: &mut impl std::io::Write,
    checks: &[Check],
    rerun: &crate::output::Rerun,
) -> std::io::Result<()> {
    for check in checks {
        let mark = match check.status {
            CheckStatus::Ok => "[ок]",
            CheckStatus::Warning => "[внимание]",
            CheckStatus::Problem => "[проблема]",
        };
        writeln!(out, "{mark} {}", check.message)?;
        if let Some(detail) = &check.detail {
            writeln!(out, "       подробности: {detail}")?;
        }
        if !check.next_steps.is_empty() {
            crate::output::print_next_steps(out, &check.next_steps, rerun)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use zayavka_engine::{LEGAL_REVIEW_NOTICE, legal_module_checks};

    /// Regression (issue 14): the app shows residents one plain line about the legal texts'
    /// review; `zayavka doctor` names the modules under that line — by their Russian titles
    /// since issue 38, never their ids.
    #[test]
    fn issue_14_doctor_prints_the_legal_review_details_for_maintainers() {
        let checks = legal_module_checks(jiff::civil::date(2026, 12, 1));
        let rerun = crate::output::Rerun {
            words: vec!["zayavka".into(), "doctor".into()],
            profile: None,
            is_draft: false,
        };
        let mut out = Vec::new();
        write_checks(&mut out, &checks, &rerun).unwrap();
        let text = String::from_utf8(out).unwrap();
        let notice = format!(
            "[внимание] {LEGAL_REVIEW_NOTICE}\n       подробности: ещё не полностью сверены"
        );
        assert!(text.contains(&notice), "{text}");
        for module in zayavka_engine::legal_catalogue().awaiting_verification() {
            assert!(text.contains(&module.title), "{text}");
            assert!(!text.contains(&format!("{} (", module.id)), "{text}");
        }
    }
}
