//! `zayavka-standin`: serves one canned chat completion forever, for benchmarks and manual runs.
//!
//! The first line on standard output is the base URL to configure as the provider; nothing
//! else is printed there, so a script can read exactly one line and go on.
//!
//! With `--answers DIR` it serves a folder of the evaluation's recorded answers
//! (`tests/eval/answers/system-v3`), each to the request carrying its case's user message, for
//! `zayavka eval --run` to check offline (docs/eval.md).
//!
//! With `--status CODE` it plays a failing provider instead: every request is answered with that
//! status and an OpenAI-style error object (the desktop app's end-to-end tests use it).
//!
//! With `--gigachat-key KEY` it plays GigaChat: the key is exchanged for a token at
//! `/api/v2/oauth` on the same address (the profile's `auth_url`), and the completion comes as
//! GigaChat answers forced function calling, the content being the function's arguments.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use zayavka_standin::{Reply, Script, Service, StandIn};

/// Serve one OpenAI-compatible chat completion on 127.0.0.1 until stopped.
#[derive(Debug, Parser)]
#[command(version)]
struct Args {
    /// The port on 127.0.0.1 to listen on; 0 picks a free one.
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// How long to wait before each answer, in milliseconds, to imitate a model's latency.
    #[arg(long, default_value_t = 0)]
    delay_ms: u64,
    /// The completion's message content.
    #[arg(
        long,
        conflicts_with = "content_file",
        required_unless_present_any = ["content_file", "status", "answers"]
    )]
    content: Option<String>,
    /// A UTF-8 file whose text is the completion's message content.
    #[arg(long)]
    content_file: Option<PathBuf>,
    /// Answer every request with this HTTP status (400 to 599) and an OpenAI-style error object
    /// instead of a completion, as a failing provider would.
    #[arg(long, conflicts_with_all = ["content", "content_file"],
          value_parser = clap::value_parser!(u16).range(400..=599))]
    status: Option<u16>,
    /// Serve the recorded answers of this folder (one JSON file per case, docs/eval.md): each
    /// case's answers in round order to the requests carrying its user message.
    #[arg(long, conflicts_with_all = ["content", "content_file", "status", "gigachat_key", "delay_ms"])]
    answers: Option<PathBuf>,
    /// Exit when standard input closes, so that the stand-in dies with the process that started it.
    #[arg(long)]
    exit_on_stdin_close: bool,
    /// Play GigaChat: exchange this «ключ авторизации» for tokens at `/api/v2/oauth` and answer
    /// only requests that carry a token issued here; the content (a JSON object) becomes the
    /// arguments of a `function_call` named by `--function-name`. Needs `--port 0`.
    #[arg(long, conflicts_with = "status")]
    gigachat_key: Option<String>,
    /// The scope the GigaChat key is for.
    #[arg(long, default_value = "GIGACHAT_API_PERS", requires = "gigachat_key")]
    gigachat_scope: String,
    /// The function GigaChat is made to call (the app's schema name, such as `request_draft_v2`).
    #[arg(long, default_value = "request_draft_v2", requires = "gigachat_key")]
    function_name: String,
}

fn main() -> ExitCode {
    let args = Args::parse();
    if let Some(dir) = &args.answers {
        let script = match zayavka_standin::read_answer_corpus(dir) {
            Ok(corpus) => Script::answer_corpus(&corpus),
            Err(message) => {
                eprintln!("zayavka-standin: {message}");
                return ExitCode::from(2);
            }
        };
        return serve(&args, StandIn::start_on(args.port, script));
    }
    let mut reply = match reply_for(&args) {
        Ok(reply) => reply,
        Err(message) => {
            eprintln!("zayavka-standin: {message}");
            return ExitCode::from(2);
        }
    };
    if args.delay_ms > 0 {
        reply = reply.delayed(Duration::from_millis(args.delay_ms));
    }
    let started = match &args.gigachat_key {
        // The service's stand-in listens on a free port only.
        Some(_) if args.port != 0 => Err(std::io::Error::other("--gigachat-key needs --port 0")),
        Some(key) => Ok(StandIn::start_as(
            Service::GigaChat {
                authorization_key: key.clone(),
                scope: args.gigachat_scope.clone(),
                token_lifetime: Duration::from_secs(1800),
            },
            Script::always(reply),
        )),
        None => StandIn::start_on(args.port, Script::always(reply)),
    };
    serve(&args, started)
}

/// Prints the base URL of a started stand-in and serves until told to stop.
fn serve(args: &Args, started: std::io::Result<StandIn>) -> ExitCode {
    let stand_in = match started {
        Ok(stand_in) => stand_in,
        Err(error) => {
            eprintln!(
                "zayavka-standin: cannot listen on 127.0.0.1:{}: {error}",
                args.port
            );
            return ExitCode::FAILURE;
        }
    };

    let mut stdout = std::io::stdout().lock();
    if writeln!(stdout, "{}", stand_in.base_url())
        .and_then(|()| stdout.flush())
        .is_err()
    {
        return ExitCode::FAILURE;
    }
    drop(stdout);

    if let Err(error) = wait_for_stop(args.exit_on_stdin_close) {
        eprintln!("zayavka-standin: cannot wait for a stop signal: {error}");
        return ExitCode::FAILURE;
    }
    drop(stand_in);
    ExitCode::SUCCESS
}

/// The one reply the arguments ask for: an error with `--status`, otherwise a completion.
fn reply_for(args: &Args) -> Result<Reply, String> {
    if let Some(status) = args.status {
        return Ok(Reply::json(
            status,
            serde_json::json!({"error": {
                "message": "the stand-in was started with --status",
                "type": "server_error",
                "code": status,
            }}),
        ));
    }
    let content = match (&args.content, &args.content_file) {
        (Some(content), _) => content.clone(),
        (None, Some(path)) => std::fs::read_to_string(path)
            .map_err(|error| format!("cannot read {}: {error}", path.display()))?,
        (None, None) => unreachable!("clap requires --content, --content-file or --status"),
    };
    if args.gigachat_key.is_some() {
        let arguments = serde_json::from_str(&content)
            .map_err(|error| format!("with --gigachat-key the content must be JSON: {error}"))?;
        return Ok(Reply::function_call(&args.function_name, arguments));
    }
    Ok(Reply::completion(&content))
}

/// Blocks until Ctrl-C, SIGTERM or, when asked, the end of standard input.
fn wait_for_stop(exit_on_stdin_close: bool) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let stdin_closed = async {
            if exit_on_stdin_close {
                let (closed, closed_received) = tokio::sync::oneshot::channel::<()>();
                // Reading standard input blocks, so it gets a plain thread; it ends with the
                // process, which is exactly when it stops mattering.
                std::thread::spawn(move || {
                    let _ = std::io::copy(&mut std::io::stdin().lock(), &mut std::io::sink());
                    let _ = closed.send(());
                });
                let _ = closed_received.await;
            } else {
                std::future::pending::<()>().await;
            }
        };
        tokio::select! {
            result = tokio::signal::ctrl_c() => result,
            result = terminate() => result,
            () = stdin_closed => Ok(()),
        }
    })
}

#[cfg(unix)]
async fn terminate() -> std::io::Result<()> {
    let mut signal = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    signal.recv().await;
    Ok(())
}

#[cfg(not(unix))]
async fn terminate() -> std::io::Result<()> {
    // Windows has no SIGTERM; Ctrl-C and the end of standard input cover it there.
    std::future::pending().await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(arguments: &[&str]) -> Result<Args, clap::Error> {
        Args::try_parse_from(std::iter::once("zayavka-standin").chain(arguments.iter().copied()))
    }

    #[test]
    fn status_answers_an_error_object_instead_of_a_completion() {
        let reply = reply_for(&parse(&["--status", "503"]).unwrap()).unwrap();
        let Reply::Http { status, body, .. } = reply else {
            panic!("expected a plain HTTP reply, got {reply:?}");
        };
        assert_eq!(status, 503);
        let body: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(body["error"]["code"], 503);
        assert_eq!(body["error"]["type"], "server_error");
    }

    #[test]
    fn status_takes_only_error_codes_and_no_content() {
        assert!(parse(&["--status", "200"]).is_err());
        assert!(parse(&["--status", "600"]).is_err());
        assert!(parse(&["--status", "500", "--content", "{}"]).is_err());
        assert!(parse(&[]).is_err(), "some reply must be chosen");
    }

    #[test]
    fn content_is_served_as_a_completion() {
        let reply = reply_for(&parse(&["--content", "{\"outcome\":\"draft\"}"]).unwrap()).unwrap();
        assert_eq!(reply, Reply::completion("{\"outcome\":\"draft\"}"));
    }

    #[test]
    fn an_unreadable_content_file_is_reported_with_its_path() {
        let missing = std::env::temp_dir().join("zayavka-standin-no-such-file.json");
        let args = parse(&["--content-file", missing.to_str().unwrap()]).unwrap();
        let message = reply_for(&args).unwrap_err();
        assert!(
            message.contains("zayavka-standin-no-such-file.json"),
            "{message}"
        );
    }
}
