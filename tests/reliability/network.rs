//! Network faults from a real TCP proxy on loopback between the `zayavka` binary and the
//! stand-in provider (issue 19).
//!
//! The proxy is a store-and-forward relay on its own thread and Tokio runtime: it accepts the
//! client's connection, reads one HTTP request, sends it to the stand-in, reads the whole answer
//! (the stand-in closes every connection after its reply) and gives it to the client in the way
//! the fault says — late, cut off by a TCP reset after the headers or in the middle of the body,
//! one byte a second. Two faults need no stand-in: a server that accepts and never answers, and a
//! TLS handshake that stalls (the client is given an `https://` address of a listener that takes
//! the ClientHello and never sends a ServerHello). The proxy counts the connections it accepts,
//! which is how many attempts the client really made.
//!
//! Every case runs `zayavka draft --json` with `ZAYAVKA_TIMEOUT_SECS` and `ZAYAVKA_ATTEMPTS`
//! and checks the exit code, the printed outcome and reason, the stored draft (`drafts show
//! --json`) and its context record (`--record`), the Russian message, the connection count, and
//! the wall time against the budget: at most `timeout × attempts` plus the longest backoff
//! between them (0.5 s before the second attempt, 1 s before the third) plus [`SLACK`] for
//! starting the process and opening the database on a busy machine.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use zayavka_standin::{Reply, Script, StandIn};

use crate::canary::{CANARY_KEY, Leftovers};
use crate::support::{run, zayavka};

/// Time on top of the budget for starting the binary, opening its database and writing the
/// draft, with room for a machine that runs other tests at the same time.
const SLACK: Duration = Duration::from_secs(5);

/// The backoff the adapter waits at most before attempt `n + 1`, summed over a call of
/// `attempts` attempts: 0.5 s, then 1 s (the base of 500 ms doubled, `Budget::default`).
fn most_backoff(attempts: u32) -> Duration {
    (1..attempts)
        .map(|retry| Duration::from_millis(500) * (1 << (retry - 1)))
        .sum()
}

/// What the proxy does to each connection.
#[derive(Debug, Clone, Copy)]
enum Fault {
    /// The answer is held back this long, then passed on whole.
    Latency(Duration),
    /// The status line and headers are passed on, then the connection is reset.
    ResetAfterHeaders,
    /// The headers and half of the body are passed on, then the connection is reset.
    ResetMidBody,
    /// The headers are passed on at once, then the body one byte at a time, one a second.
    Trickle,
    /// The request is read and nothing is ever sent back; the connection stays open.
    Silent,
}

/// A TCP proxy on `127.0.0.1` in front of `upstream`; dropping it shuts it down.
struct Proxy {
    addr: SocketAddr,
    connections: Arc<AtomicUsize>,
    shutdown: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Proxy {
    /// A proxy that applies `fault` to the first `faulty` connections and passes the rest on
    /// as they are.
    fn start(upstream: Option<SocketAddr>, fault: Fault, faulty: usize) -> Proxy {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        let connections = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&connections);
        let (shutdown, shutdown_received) = oneshot::channel();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let listener = TcpListener::from_std(listener).unwrap();
                let serve = async {
                    loop {
                        let Ok((client, _)) = listener.accept().await else {
                            continue;
                        };
                        let number = counted.fetch_add(1, Ordering::SeqCst) + 1;
                        let fault = (number <= faulty).then_some(fault);
                        tokio::spawn(relay(client, upstream, fault));
                    }
                };
                tokio::select! {
                    () = serve => {}
                    _ = shutdown_received => {}
                }
            });
            // Dropping the runtime drops every connection task, so silent connections close.
        });
        Proxy {
            addr,
            connections,
            shutdown: Some(shutdown),
            thread: Some(thread),
        }
    }

    fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }

    fn url(&self, scheme: &str) -> String {
        format!("{scheme}://{}/v1", self.addr)
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Where the blank line after the headers ends, if it has arrived.
fn head_end(bytes: &[u8]) -> Option<usize> {
    bytes
        .windows(4)
        .position(|window| window == b"\r\n\r\n")
        .map(|at| at + 4)
}

fn content_length(head: &[u8]) -> usize {
    String::from_utf8_lossy(head)
        .lines()
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.trim()
                .eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse().ok())?
        })
        .unwrap_or(0)
}

/// Reads one HTTP request with a `Content-Length` body.
async fn read_request(client: &mut TcpStream) -> Option<Vec<u8>> {
    let mut request = Vec::new();
    let mut buffer = [0u8; 16 * 1024];
    loop {
        if let Some(end) = head_end(&request)
            && request.len() >= end + content_length(&request[..end])
        {
            return Some(request);
        }
        let read = client.read(&mut buffer).await.ok()?;
        if read == 0 {
            return None;
        }
        request.extend_from_slice(&buffer[..read]);
    }
}

async fn relay(mut client: TcpStream, upstream: Option<SocketAddr>, fault: Option<Fault>) {
    let Some(request) = read_request(&mut client).await else {
        // A TLS ClientHello is no HTTP request: the connection is held, never answered.
        let mut sink = [0u8; 1024];
        while matches!(client.read(&mut sink).await, Ok(read) if read > 0) {}
        return;
    };
    let (Some(upstream), false) = (upstream, matches!(fault, Some(Fault::Silent))) else {
        let mut sink = [0u8; 1024];
        while matches!(client.read(&mut sink).await, Ok(read) if read > 0) {}
        return;
    };
    let Ok(mut server) = TcpStream::connect(upstream).await else {
        return;
    };
    if server.write_all(&request).await.is_err() {
        return;
    }
    let mut answer = Vec::new();
    if server.read_to_end(&mut answer).await.is_err() {
        return;
    }
    let head = head_end(&answer).unwrap_or(answer.len());
    match fault {
        None => {
            let _ = client.write_all(&answer).await;
        }
        Some(Fault::Latency(delay)) => {
            tokio::time::sleep(delay).await;
            let _ = client.write_all(&answer).await;
        }
        Some(Fault::ResetAfterHeaders) => {
            let _ = client.write_all(&answer[..head]).await;
            flush_and_reset(client).await;
        }
        Some(Fault::ResetMidBody) => {
            let half = head + (answer.len() - head) / 2;
            let _ = client.write_all(&answer[..half]).await;
            flush_and_reset(client).await;
        }
        Some(Fault::Trickle) => {
            if client.write_all(&answer[..head]).await.is_err() {
                return;
            }
            for byte in &answer[head..] {
                tokio::time::sleep(Duration::from_secs(1)).await;
                if client.write_all(std::slice::from_ref(byte)).await.is_err() {
                    return;
                }
            }
        }
        Some(Fault::Silent) => {}
    }
}

/// Sends what was written, waits a moment so that it reaches the client ahead of the reset,
/// and closes with a TCP reset (RST) instead of a FIN: what a crashed server or a middlebox
/// cutting the connection looks like.
async fn flush_and_reset(mut client: TcpStream) {
    let _ = client.flush().await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    let _ = client.set_zero_linger();
}

const DESCRIPTION: &str = "В подъезде неделю не горит свет на лестнице между третьим и \
                           четвёртым этажами.";

/// One `zayavka draft --json` through the proxy, and everything it printed and kept.
struct Drafted {
    home: tempfile::TempDir,
    code: Option<i32>,
    elapsed: Duration,
    report: Value,
    stdout: String,
    stderr: String,
    record: Value,
}

fn draft(base_url: &str, timeout_secs: u64, attempts: u32) -> Drafted {
    let home = tempfile::tempdir().unwrap();
    let record_path = home.path().join("record.json");
    let started = Instant::now();
    let (output, stdout, stderr) = run(zayavka()
        .env("ZAYAVKA_HOME", home.path())
        .env("ZAYAVKA_API_KEY", CANARY_KEY)
        .env("ZAYAVKA_TIMEOUT_SECS", timeout_secs.to_string())
        .env("ZAYAVKA_ATTEMPTS", attempts.to_string())
        // The logs are on so that the canary sweep covers them too.
        .env("ZAYAVKA_LOG", "debug")
        .args(["draft", "--json", "--model", "stand-in-model"])
        .args(["--base-url", base_url])
        .arg("--record")
        .arg(&record_path)
        .args(["--description", DESCRIPTION]));
    let elapsed = started.elapsed();
    let report = serde_json::from_str(&stdout)
        .unwrap_or_else(|error| panic!("stdout is not JSON ({error}): {stdout}\n{stderr}"));
    let record = serde_json::from_str(&std::fs::read_to_string(&record_path).unwrap()).unwrap();
    Drafted {
        home,
        code: output.status.code(),
        elapsed,
        report,
        stdout,
        stderr,
        record,
    }
}

/// The lines the binary wrote for the resident, without the diagnostic log lines
/// (`ZAYAVKA_LOG`), which are for developers and in English.
fn resident_lines(stderr: &str) -> String {
    stderr
        .lines()
        .filter(|line| {
            !(line.len() > 20
                && line.as_bytes()[4] == b'-'
                && line.as_bytes()[10] == b'T'
                && [" TRACE ", " DEBUG ", " INFO ", " WARN ", " ERROR "]
                    .iter()
                    .any(|level| line.contains(level)))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

impl Drafted {
    fn stored(&self) -> Value {
        let id = self.report["draft_id"].to_string();
        let (output, stdout, stderr) = run(zayavka()
            .env("ZAYAVKA_HOME", self.home.path())
            .args(["drafts", "show", &id, "--json"]));
        assert_eq!(output.status.code(), Some(0), "{stderr}");
        serde_json::from_str(&stdout).unwrap()
    }

    /// A failed draft: the outcome, reason and attempts printed, stored and recorded agree, the
    /// message is Russian, blames no one and says the text is kept, and no canary is left.
    fn assert_failed(&self, reason: &str, attempts: usize, retry_reason: &str) {
        let context = format!("stdout: {}\nstderr: {}", self.stdout, self.stderr);
        assert_eq!(self.code, Some(5), "{context}");
        assert_eq!(self.report["outcome"], "failed", "{context}");
        assert_eq!(self.report["reason"], reason, "{context}");
        assert_eq!(self.report["retryable"], true, "{context}");
        assert_eq!(self.report["attempts"], attempts, "{context}");
        let stored = self.stored();
        assert_eq!(stored["draft"]["outcome"], "failed");
        assert_eq!(stored["draft"]["reason"], reason);
        assert_eq!(stored["draft"]["input"]["description"], DESCRIPTION);
        assert_eq!(stored["retryable"], true);
        assert_eq!(stored["attempts"], attempts);
        let recorded = self.record["attempts"].as_array().unwrap();
        assert_eq!(recorded.len(), attempts, "{}", self.record["attempts"]);
        for (index, attempt) in recorded.iter().enumerate() {
            assert_eq!(attempt["error_kind"], reason, "{attempt}");
            let expected = if index + 1 < attempts {
                Value::from(retry_reason)
            } else {
                Value::Null
            };
            assert_eq!(attempt["retry_reason"], expected, "{attempt}");
        }
        let said = resident_lines(&self.stderr);
        assert!(
            said.contains(&format!(
                "Ваш текст сохранён в черновике № {}.",
                self.report["draft_id"]
            )),
            "{said}"
        );
        let details = said
            .lines()
            .find(|line| line.starts_with("Подробности: "))
            .unwrap_or_else(|| panic!("no details line: {said}"));
        assert!(
            details.chars().any(|c| ('а'..='я').contains(&c)),
            "{details}"
        );
        for english in [
            "error",
            "timed out",
            "timeout",
            "connection",
            "reset",
            "hyper",
            "reqwest",
            "tls",
            "body",
        ] {
            assert!(
                !said.to_lowercase().contains(english),
                "«{english}» in what the resident reads:\n{said}"
            );
        }
        eprintln!("the resident reads:\n{said}");
        // A technical failure is never a verdict on the resident's problem.
        for verdict in ["отклон", "не подходит", "некорректн", "неверн"]
        {
            assert!(!said.contains(verdict), "«{verdict}»: {said}");
        }
        self.assert_no_canary();
    }

    fn assert_no_canary(&self) {
        Leftovers::new()
            .path(self.home.path())
            .output("stdout", &self.stdout)
            .output("stderr", &self.stderr)
            .assert_clean();
    }

    fn assert_within(&self, budget: Duration) {
        assert!(
            self.elapsed <= budget,
            "took {:?}, over the budget of {budget:?}",
            self.elapsed
        );
        eprintln!("wall time {:?} (bound {budget:?})", self.elapsed);
    }
}

fn completion() -> Reply {
    Reply::completion(&zayavka_standin::lighting_draft().to_string())
}

#[test]
fn added_latency_within_the_budget_still_gives_a_request() {
    let stand_in = StandIn::start(Script::always(completion()));
    let proxy = Proxy::start(
        Some(stand_in.addr()),
        Fault::Latency(Duration::from_millis(700)),
        usize::MAX,
    );
    let drafted = draft(&proxy.url("http"), 2, 3);
    assert_eq!(drafted.code, Some(0), "{}", drafted.stderr);
    assert_eq!(drafted.report["outcome"], "ready");
    assert_eq!(drafted.report["attempts"], 1);
    assert_eq!(drafted.stored()["draft"]["outcome"], "ready");
    assert_eq!(proxy.connections(), 1);
    assert_eq!(stand_in.request_count(), 1);
    assert!(drafted.elapsed >= Duration::from_millis(700));
    drafted.assert_within(Duration::from_secs(2) + SLACK);
    drafted.assert_no_canary();
}

#[test]
fn a_reset_after_the_headers_is_retried_up_to_the_attempts_then_fails_as_unavailable() {
    let stand_in = StandIn::start(Script::always(completion()).repeat_last());
    let proxy = Proxy::start(Some(stand_in.addr()), Fault::ResetAfterHeaders, usize::MAX);
    let drafted = draft(&proxy.url("http"), 1, 3);
    drafted.assert_failed("unavailable", 3, "body_error");
    assert_eq!(proxy.connections(), 3);
    // The server did answer 200: the resident is not told it answered with an error.
    assert!(
        drafted.stderr.contains(
            "Подробности: Соединение с сервером модели оборвалось, пока он присылал ответ \
             (HTTP 200)."
        ),
        "{}",
        drafted.stderr
    );
    assert_eq!(
        drafted.record["attempts"][0]["http_status"], 200,
        "the headers did arrive"
    );
    drafted.assert_within(3 * Duration::from_secs(1) + most_backoff(3) + SLACK);
}

#[test]
fn a_reset_mid_body_is_retried_up_to_the_attempts_then_fails_as_unavailable() {
    let stand_in = StandIn::start(Script::always(completion()).repeat_last());
    let proxy = Proxy::start(Some(stand_in.addr()), Fault::ResetMidBody, usize::MAX);
    let drafted = draft(&proxy.url("http"), 1, 3);
    drafted.assert_failed("unavailable", 3, "body_error");
    assert_eq!(proxy.connections(), 3);
    assert!(
        drafted
            .stderr
            .contains("Соединение с сервером модели оборвалось, пока он присылал ответ"),
        "{}",
        drafted.stderr
    );
    drafted.assert_within(3 * Duration::from_secs(1) + most_backoff(3) + SLACK);
}

#[test]
fn a_reset_mid_body_once_is_healed_by_the_second_attempt() {
    let stand_in = StandIn::start(Script::always(completion()).repeat_last());
    let proxy = Proxy::start(Some(stand_in.addr()), Fault::ResetMidBody, 1);
    let drafted = draft(&proxy.url("http"), 1, 3);
    assert_eq!(drafted.code, Some(0), "{}", drafted.stderr);
    assert_eq!(drafted.report["outcome"], "ready");
    assert_eq!(drafted.report["attempts"], 2);
    assert_eq!(drafted.record["attempts"][0]["retry_reason"], "body_error");
    assert_eq!(proxy.connections(), 2);
    assert_eq!(drafted.stored()["draft"]["outcome"], "ready");
    drafted.assert_within(2 * Duration::from_secs(1) + most_backoff(2) + SLACK);
    drafted.assert_no_canary();
}

#[test]
fn a_body_trickling_one_byte_a_second_times_out_every_attempt() {
    let stand_in = StandIn::start(Script::always(completion()).repeat_last());
    let proxy = Proxy::start(Some(stand_in.addr()), Fault::Trickle, usize::MAX);
    // Each attempt waits its whole timeout: the trickle keeps it alive, and no more.
    assert_three_one_second_attempts_timed_out(&proxy, "http");
}

#[test]
fn a_server_that_accepts_and_never_answers_times_out_every_attempt() {
    let proxy = Proxy::start(None, Fault::Silent, usize::MAX);
    assert_three_one_second_attempts_timed_out(&proxy, "http");
}

#[test]
fn a_tls_handshake_that_stalls_times_out_every_attempt() {
    // The listener takes the TCP connection and the ClientHello and never sends a ServerHello.
    let proxy = Proxy::start(None, Fault::Silent, usize::MAX);
    assert_three_one_second_attempts_timed_out(&proxy, "https");
}

/// A draft through `proxy` with three attempts of 1 s: each one timed out, each took its whole
/// second (a connection for each), and the whole run stayed within the budget.
fn assert_three_one_second_attempts_timed_out(proxy: &Proxy, scheme: &str) {
    let drafted = draft(&proxy.url(scheme), 1, 3);
    drafted.assert_failed("timeout", 3, "timeout");
    assert_eq!(proxy.connections(), 3);
    assert!(
        drafted.elapsed >= Duration::from_secs(3),
        "{:?}",
        drafted.elapsed
    );
    drafted.assert_within(3 * Duration::from_secs(1) + most_backoff(3) + SLACK);
}

#[test]
fn a_tls_stall_longer_than_one_attempt_is_cut_by_the_attempt_timeout_not_the_connect_timeout() {
    // The connect timeout (10 s) is longer than this attempt timeout (2 s): the stalled
    // handshake must still end at the attempt's 2 s, not the connect timeout's 10 s.
    let proxy = Proxy::start(None, Fault::Silent, usize::MAX);
    let drafted = draft(&proxy.url("https"), 2, 1);
    drafted.assert_failed("timeout", 1, "timeout");
    assert_eq!(proxy.connections(), 1);
    drafted.assert_within(Duration::from_secs(2) + SLACK);
}
