//! `zayavka-standin`: serves one canned chat completion forever, for benchmarks and manual runs.
//!
//! The first line on standard output is the base URL to configure as the provider; nothing
//! else is printed there, so a script can read exactly one line and go on.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use zayavka_standin::{Reply, Script, StandIn};

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
        required_unless_present = "content_file"
    )]
    content: Option<String>,
    /// A UTF-8 file whose text is the completion's message content.
    #[arg(long)]
    content_file: Option<PathBuf>,
    /// Exit when standard input closes, so that the stand-in dies with the process that started it.
    #[arg(long)]
    exit_on_stdin_close: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let content = match (args.content, args.content_file) {
        (Some(content), _) => content,
        (None, Some(path)) => match std::fs::read_to_string(&path) {
            Ok(content) => content,
            Err(error) => {
                eprintln!("zayavka-standin: cannot read {}: {error}", path.display());
                return ExitCode::from(2);
            }
        },
        (None, None) => unreachable!("clap requires --content or --content-file"),
    };

    let mut reply = Reply::completion(&content);
    if args.delay_ms > 0 {
        reply = reply.delayed(Duration::from_millis(args.delay_ms));
    }
    let stand_in = match StandIn::start_on(args.port, Script::always(reply)) {
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
