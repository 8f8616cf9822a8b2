//! `zayavka doctor`.

use std::io::Write as _;
use std::process::ExitCode;

use anyhow::Context as _;
use zayavka_engine::doctor::{CheckStatus, run_doctor};
use zayavka_engine::draft::EnvironmentOverrides;
use zayavka_engine::paths::Paths;
use zayavka_engine::secrets::SecretStore;
use zayavka_llm::CancellationToken;

/// Arguments of `zayavka doctor`.
#[derive(Debug, clap::Args)]
pub struct DoctorArgs {
    /// Вывести результат в JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `zayavka doctor`: exit 0 when nothing needs fixing, 1 otherwise.
pub fn run(args: DoctorArgs, paths: &Paths, store: &dyn SecretStore) -> anyhow::Result<ExitCode> {
    let environment = EnvironmentOverrides::from_env(false)
        .map_err(|error| anyhow::anyhow!(error.to_string()))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("не удалось запустить асинхронную среду")?;
    let today = jiff::Zoned::now().date();
    let checks = runtime.block_on(run_doctor(
        paths,
        store,
        environment,
        today,
        &CancellationToken::new(),
    ));
    let rerun = crate::output::Rerun {
        words: vec!["zayavka".into(), "doctor".into()],
        profile: zayavka_engine::settings::active_profile_name(paths),
        is_draft: false,
    };
    let mut stdout = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut stdout, &checks)?;
        writeln!(stdout)?;
    } else {
        for check in &checks {
            let mark = match check.status {
                CheckStatus::Ok => "[ок]",
                CheckStatus::Warning => "[внимание]",
                CheckStatus::Problem => "[проблема]",
            };
            writeln!(stdout, "{mark} {}", check.message)?;
            if !check.next_steps.is_empty() {
                crate::output::print_next_steps(&mut stdout, &check.next_steps, &rerun)?;
            }
        }
    }
    let healthy = checks.iter().all(|c| c.status != CheckStatus::Problem);
    Ok(ExitCode::from(if healthy { 0 } else { 1 }))
}
