//! The `zayavka` command-line tool: argument parsing and printing over `zayavka-engine`.
//!
//! Exit codes are stable: 0 ready, 2 invalid input or usage, 3 the resident is asked to change
//! the text, 4 the model's output was rejected, 5 a technical failure.

mod output;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Zayavka: a calm, factual request to the management company from your own words.
#[derive(Debug, Parser)]
#[command(name = "zayavka", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Assemble a request offline from a saved input and a saved model response.
    Assemble(AssembleArgs),
}

#[derive(Debug, clap::Args)]
struct AssembleArgs {
    /// The resident's input: a JSON object with description, location, consequences,
    /// desired_actions and confirmed_subject.
    #[arg(long, value_name = "INPUT.json")]
    input: PathBuf,
    /// The model's response: its JSON object, or a whole chat-completions response body.
    #[arg(long, value_name = "RESPONSE.json")]
    response: PathBuf,
    /// Print one JSON object instead of the request text.
    #[arg(long)]
    json: bool,
}

/// The exit code for usage errors and unreadable files.
const USAGE: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("zayavka: {error:#}");
            ExitCode::from(USAGE)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Assemble(args) => assemble(args),
    }
}

fn assemble(args: AssembleArgs) -> anyhow::Result<ExitCode> {
    let input = read_file(&args.input, "файл с данными заявки")?;
    let response = read_file(&args.response, "файл с ответом модели")?;
    let outcome = zayavka_engine::assemble::assemble_from_texts(&input, &response);
    output::print_outcome(&outcome, outcome.report(), args.json)?;
    Ok(ExitCode::from(outcome.exit_code()))
}

fn read_file(path: &std::path::Path, what: &str) -> anyhow::Result<String> {
    std::fs::read_to_string(path).map_err(|error| {
        anyhow::anyhow!(
            "не удалось прочитать {what} «{}»: {error}. Проверьте путь и права доступа.",
            path.display()
        )
    })
}
