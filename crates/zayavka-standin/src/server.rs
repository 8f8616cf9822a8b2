//! The listening server: its own thread and runtime, one task per connection.

use std::io;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio_rustls::TlsAcceptor;

use crate::reply::Reply;
use crate::request::{ReadError, RecordedRequest, read_request};
use crate::script::Script;
use crate::service::{GIGACHAT_OAUTH_PATH, Service, ServiceState};
use crate::tls::TestCa;

/// Requests kept for [`StandIn::requests`]; a long benchmark run must not grow memory without
/// bound, and no test looks at more than a handful.
const MAX_RECORDED_REQUESTS: usize = 10_000;

/// A reset sent right after the partial body could overtake bytes still in flight, and the
/// client would then see a failure before the body instead of in the middle of it.
const PAUSE_BEFORE_RESET: Duration = Duration::from_millis(20);

/// A running stand-in provider on `127.0.0.1`; dropping it shuts it down.
///
/// It runs on its own thread with its own Tokio runtime, so synchronous tests and async tests
/// on any runtime can use it alike.
#[derive(Debug)]
pub struct StandIn {
    addr: SocketAddr,
    https: bool,
    shared: Arc<Shared>,
    shutdown: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

#[derive(Debug)]
struct Shared {
    script: Mutex<Script>,
    /// Replies the GigaChat token endpoint serves before it exchanges keys itself.
    token_script: Mutex<Script>,
    service: Option<Service>,
    service_state: Mutex<ServiceState>,
    requests: Mutex<Vec<RecordedRequest>>,
    request_count: AtomicUsize,
    /// Requests received and not yet answered, and the most there ever were at once.
    in_flight: AtomicUsize,
    most_in_flight: AtomicUsize,
}

/// Counts a request as in flight from its arrival until its reply is written (or abandoned).
struct InFlight<'a>(&'a Shared);

impl<'a> InFlight<'a> {
    fn start(shared: &'a Shared) -> InFlight<'a> {
        let now = shared.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        shared.most_in_flight.fetch_max(now, Ordering::SeqCst);
        InFlight(shared)
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

impl StandIn {
    /// Starts a stand-in on a free port and returns once it is listening.
    ///
    /// # Panics
    ///
    /// Panics if no loopback port can be bound or no thread started, which in a test means the
    /// machine itself is broken; use [`StandIn::start_on`] to handle that instead.
    pub fn start(script: Script) -> StandIn {
        StandIn::start_on(0, script).expect("zayavka-standin could not start on 127.0.0.1")
    }

    /// Starts a stand-in on the given port (`0` picks a free one) and returns once it is
    /// listening: connections made after this returns are accepted.
    pub fn start_on(port: u16, script: Script) -> io::Result<StandIn> {
        StandIn::start_with(port, script, None, None)
    }

    /// Starts a stand-in that plays `service`: it checks credentials, headers and tokens as
    /// the service does and answers failures itself (see [`Service`]), serves the GigaChat
    /// token endpoint at [`StandIn::auth_url`], and answers every request that passes with
    /// the next reply of `script`.
    ///
    /// # Panics
    ///
    /// Panics as [`StandIn::start`] does.
    pub fn start_as(service: Service, script: Script) -> StandIn {
        StandIn::start_as_with_token_script(service, Script::new(), script)
    }

    /// [`StandIn::start_as`] with replies for the GigaChat token endpoint: each request to it
    /// is answered with the next reply of `token_script` while there is one (a `503`, a
    /// `401`, a reset), and by the service's own exchange after that. The credentials are
    /// not checked while the token script answers.
    ///
    /// # Panics
    ///
    /// Panics as [`StandIn::start`] does.
    pub fn start_as_with_token_script(
        service: Service,
        token_script: Script,
        script: Script,
    ) -> StandIn {
        StandIn::start_with(0, script, None, Some((service, token_script)))
            .expect("zayavka-standin could not start on 127.0.0.1")
    }

    /// Starts a stand-in that speaks HTTPS on a free port, presenting a server certificate
    /// for `127.0.0.1` signed by `ca`; [`StandIn::base_url`] then starts with `https://`. Only
    /// a client that trusts `ca` can talk to it.
    ///
    /// # Panics
    ///
    /// Panics as [`StandIn::start`] does.
    pub fn start_tls(script: Script, ca: &TestCa) -> StandIn {
        StandIn::start_with(0, script, Some(ca.acceptor()), None)
            .expect("zayavka-standin could not start on 127.0.0.1")
    }

    fn start_with(
        port: u16,
        script: Script,
        tls: Option<TlsAcceptor>,
        service: Option<(Service, Script)>,
    ) -> io::Result<StandIn> {
        let (service, token_script) = match service {
            Some((service, token_script)) => (Some(service), token_script),
            None => (None, Script::new()),
        };
        let https = tls.is_some();
        let listener = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, port))?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let shared = Arc::new(Shared {
            script: Mutex::new(script),
            token_script: Mutex::new(token_script),
            service,
            service_state: Mutex::new(ServiceState::default()),
            requests: Mutex::new(Vec::new()),
            request_count: AtomicUsize::new(0),
            in_flight: AtomicUsize::new(0),
            most_in_flight: AtomicUsize::new(0),
        });
        let (shutdown, shutdown_received) = oneshot::channel();
        let thread_shared = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name(format!("zayavka-standin-{}", addr.port()))
            .spawn(move || {
                // Leaving `block_on` drops the runtime, which drops every connection task, so
                // connections held open by `NeverAnswer` close on shutdown too.
                runtime.block_on(serve(listener, thread_shared, shutdown_received, tls));
            })?;
        Ok(StandIn {
            addr,
            https,
            shared,
            shutdown: Some(shutdown),
            thread: Some(thread),
        })
    }

    /// The base URL a client should use, such as `http://127.0.0.1:41234/v1`
    /// (`https://` for [`StandIn::start_tls`]).
    pub fn base_url(&self) -> String {
        let scheme = if self.https { "https" } else { "http" };
        format!("{scheme}://{}/v1", self.addr)
    }

    /// The GigaChat token endpoint of a stand-in started with [`StandIn::start_as`], such as
    /// `http://127.0.0.1:41234/api/v2/oauth`.
    pub fn auth_url(&self) -> String {
        let scheme = if self.https { "https" } else { "http" };
        format!("{scheme}://{}{GIGACHAT_OAUTH_PATH}", self.addr)
    }

    /// How many tokens the GigaChat stand-in has issued.
    pub fn token_exchanges(&self) -> usize {
        lock(&self.shared.service_state).token_exchanges
    }

    /// Makes every GigaChat token issued from now on start with `prefix` followed by its
    /// number (`prefix1`, `prefix2`, …) instead of `standin-gigachat-token-`: a canary access
    /// token that a test then looks for in every file a session leaves.
    pub fn set_token_prefix(&self, prefix: &str) {
        lock(&self.shared.service_state).token_prefix = Some(prefix.to_owned());
    }

    /// Makes every GigaChat token issued so far expire now, as if the client had kept one
    /// past its lifetime or the service had revoked it.
    pub fn expire_tokens(&self) {
        lock(&self.shared.service_state).expire_tokens();
    }

    /// The address the stand-in listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The requests received so far, oldest first (at most the first 10,000).
    pub fn requests(&self) -> Vec<RecordedRequest> {
        lock(&self.shared.requests).clone()
    }

    /// How many complete requests the stand-in has received, counting every one.
    pub fn request_count(&self) -> usize {
        self.shared.request_count.load(Ordering::SeqCst)
    }

    /// The most requests that were received and not yet answered at one moment: how many a
    /// client had in flight at once.
    pub fn most_in_flight(&self) -> usize {
        self.shared.most_in_flight.load(Ordering::SeqCst)
    }
}

impl Drop for StandIn {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            // The server may already have stopped, in which case nobody is listening; that is
            // the state we want anyway.
            let _ = shutdown.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Shared {
    fn record_and_choose_reply(&self, request: RecordedRequest) -> Reply {
        // The reply is chosen under the same ordering as the count, so that concurrent
        // requests consume the script in the order they were counted.
        let mut script = lock(&self.script);
        let scripted_token = match &self.service {
            Some(Service::GigaChat { .. }) if request.path == GIGACHAT_OAUTH_PATH => {
                lock(&self.token_script).take_next()
            }
            _ => None,
        };
        let answered = scripted_token.or_else(|| {
            self.service
                .as_ref()
                .and_then(|service| service.answer(&request, &mut lock(&self.service_state)))
        });
        // What the service answers itself leaves the script untouched.
        let reply = answered.unwrap_or_else(|| script.reply_for(&request));
        {
            let mut requests = lock(&self.requests);
            if requests.len() < MAX_RECORDED_REQUESTS {
                requests.push(request);
            }
        }
        self.request_count.fetch_add(1, Ordering::SeqCst);
        reply
    }
}

/// A test that panicked while holding a lock must not hide what was recorded before it.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

async fn serve(
    listener: std::net::TcpListener,
    shared: Arc<Shared>,
    mut shutdown: oneshot::Receiver<()>,
    tls: Option<TlsAcceptor>,
) {
    let Ok(listener) = TcpListener::from_std(listener) else {
        return;
    };
    loop {
        tokio::select! {
            _ = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _peer)) => {
                    let shared = Arc::clone(&shared);
                    match tls.clone() {
                        None => {
                            tokio::spawn(handle_connection(stream, shared));
                        }
                        Some(acceptor) => {
                            tokio::spawn(async move {
                                // A client that refuses the certificate ends the handshake;
                                // there is no request to record then.
                                if let Ok(stream) = acceptor.accept(stream).await {
                                    handle_connection(stream, shared).await;
                                }
                            });
                        }
                    }
                }
                // Accept fails transiently when the process runs out of descriptors; a short
                // pause keeps the loop from spinning until some are freed.
                Err(_) => tokio::time::sleep(Duration::from_millis(10)).await,
            },
        }
    }
}

/// A connection the stand-in answers on: plain TCP or TLS over it.
trait Connection: AsyncRead + AsyncWrite + Unpin + Send {
    /// Makes closing the connection send a TCP reset instead of a FIN.
    fn reset_on_close(&self) -> io::Result<()>;
}

impl Connection for TcpStream {
    fn reset_on_close(&self) -> io::Result<()> {
        self.set_zero_linger()
    }
}

impl Connection for tokio_rustls::server::TlsStream<TcpStream> {
    fn reset_on_close(&self) -> io::Result<()> {
        self.get_ref().0.set_zero_linger()
    }
}

async fn handle_connection<C: Connection>(mut stream: C, shared: Arc<Shared>) {
    let (reply, in_flight) = match read_request(&mut stream).await {
        Ok(request) => {
            let in_flight = InFlight::start(&shared);
            let authorization = request.header("authorization").map(str::to_owned);
            let reply = shared
                .record_and_choose_reply(request)
                .with_echoed(authorization.as_deref());
            (reply, Some(in_flight))
        }
        Err(ReadError::Gone) => return,
        Err(ReadError::Malformed(reason)) => (Reply::status(400, reason), None),
    };
    // A write fails when the client has already given up, which is one of the situations
    // the scripts provoke on purpose; there is nobody left to tell.
    let _ = send(&mut stream, reply).await;
    // Answered (or abandoned): no longer in flight.
    drop(in_flight);
}

async fn send<C: Connection>(stream: &mut C, mut reply: Reply) -> io::Result<()> {
    loop {
        match reply {
            Reply::Delayed(delay, inner) => {
                tokio::time::sleep(delay).await;
                reply = *inner;
            }
            Reply::Http {
                status,
                headers,
                body,
            } => return send_http(stream, status, &headers, &body).await,
            Reply::Drip {
                status,
                body,
                chunk,
                interval,
            } => {
                let head = response_head(status, &json_headers(), Some(body.len()));
                stream.write_all(head.as_bytes()).await?;
                stream.flush().await?;
                for piece in body.chunks(chunk.max(1)) {
                    tokio::time::sleep(interval).await;
                    stream.write_all(piece).await?;
                    stream.flush().await?;
                }
                return stream.shutdown().await;
            }
            Reply::ResetAfter {
                status,
                declared_len,
                sent,
            } => {
                let head = response_head(status, &json_headers(), Some(declared_len));
                stream.write_all(head.as_bytes()).await?;
                stream.write_all(&sent).await?;
                stream.flush().await?;
                tokio::time::sleep(PAUSE_BEFORE_RESET).await;
                // A zero linger makes the close send RST instead of FIN, which is what a
                // crashing server or a middlebox cutting the connection looks like.
                return stream.reset_on_close();
            }
            Reply::NeverAnswer => {
                let mut sink = [0u8; 1024];
                while matches!(stream.read(&mut sink).await, Ok(read) if read > 0) {}
                return Ok(());
            }
            Reply::CloseImmediately => return Ok(()),
            // `handle_connection` fills echoes in before sending; one that reaches this point
            // had no request to echo, and goes out with its placeholders removed.
            echo @ Reply::EchoCredentials { .. } => reply = echo.with_echoed(None),
        }
    }
}

async fn send_http<C: Connection>(
    stream: &mut C,
    status: u16,
    headers: &[(String, String)],
    body: &[u8],
) -> io::Result<()> {
    let has_header = |name: &str| headers.iter().any(|(n, _)| n.eq_ignore_ascii_case(name));
    let chunked = headers.iter().any(|(name, value)| {
        name.eq_ignore_ascii_case("transfer-encoding")
            && value.to_ascii_lowercase().contains("chunked")
    });
    let declared_len = if has_header("content-length") || has_header("transfer-encoding") {
        None
    } else {
        Some(body.len())
    };
    let head = response_head(status, headers, declared_len);
    stream.write_all(head.as_bytes()).await?;
    if chunked {
        for piece in body.chunks(16 * 1024) {
            stream
                .write_all(format!("{:x}\r\n", piece.len()).as_bytes())
                .await?;
            stream.write_all(piece).await?;
            stream.write_all(b"\r\n").await?;
        }
        stream.write_all(b"0\r\n\r\n").await?;
    } else {
        stream.write_all(body).await?;
    }
    stream.flush().await?;
    stream.shutdown().await
}

fn response_head(
    status: u16,
    headers: &[(String, String)],
    content_length: Option<usize>,
) -> String {
    let mut head = format!("HTTP/1.1 {status} {}\r\n", reason_phrase(status));
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    if let Some(length) = content_length {
        head.push_str(&format!("content-length: {length}\r\n"));
    }
    head.push_str("connection: close\r\n\r\n");
    head
}

fn json_headers() -> Vec<(String, String)> {
    vec![("content-type".to_owned(), "application/json".to_owned())]
}

/// Clients ignore the phrase, but a readable one makes captured traffic easier to follow.
fn reason_phrase(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        402 => "Payment Required",
        403 => "Forbidden",
        404 => "Not Found",
        408 => "Request Timeout",
        422 => "Unprocessable Entity",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "Stand-In",
    }
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};

    use super::*;

    /// Sends one raw request with the standard library only, so these tests do not depend on
    /// the HTTP client whose behaviour the stand-in exists to test.
    fn exchange(stand_in: &StandIn, body: &str) -> String {
        let mut stream = std::net::TcpStream::connect(stand_in.addr()).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        write!(
            stream,
            "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut response = Vec::new();
        let _ = stream.read_to_end(&mut response);
        String::from_utf8_lossy(&response).into_owned()
    }

    #[test]
    fn serves_the_script_in_order_and_records_requests() {
        let stand_in = StandIn::start(
            Script::new()
                .then(Reply::status(503, "busy").with_header("retry-after", "2"))
                .then(Reply::completion("hello")),
        );
        let first = exchange(&stand_in, "{\"n\":1}");
        assert!(first.starts_with("HTTP/1.1 503 "), "{first}");
        assert!(first.contains("retry-after: 2\r\n"), "{first}");
        assert!(first.ends_with("\r\n\r\nbusy"), "{first}");
        let second = exchange(&stand_in, "{\"n\":2}");
        assert!(second.starts_with("HTTP/1.1 200 OK\r\n"), "{second}");
        assert!(second.contains("\"content\":\"hello\""), "{second}");

        assert_eq!(stand_in.request_count(), 2);
        let requests = stand_in.requests();
        assert_eq!(requests[0].path, "/v1/chat/completions");
        assert_eq!(requests[1].json(), serde_json::json!({"n": 2}));
        assert!(stand_in.base_url().starts_with("http://127.0.0.1:"));
        assert!(stand_in.base_url().ends_with("/v1"));
    }

    #[test]
    fn a_chunked_reply_is_framed_as_chunks() {
        let stand_in = StandIn::start(Script::always(
            Reply::status(200, "abc").with_header("transfer-encoding", "chunked"),
        ));
        let response = exchange(&stand_in, "");
        assert!(!response.contains("content-length"), "{response}");
        assert!(
            response.ends_with("\r\n\r\n3\r\nabc\r\n0\r\n\r\n"),
            "{response}"
        );
    }

    #[test]
    fn reset_after_sends_less_than_it_declares() {
        let stand_in = StandIn::start(Script::always(Reply::ResetAfter {
            status: 200,
            declared_len: 100,
            sent: b"{\"partial\":".to_vec(),
        }));
        let response = exchange(&stand_in, "");
        assert!(response.contains("content-length: 100\r\n"), "{response}");
        assert!(response.ends_with("{\"partial\":"), "{response}");
    }

    #[test]
    fn close_immediately_sends_nothing() {
        let stand_in = StandIn::start(Script::always(Reply::CloseImmediately));
        assert_eq!(exchange(&stand_in, "x"), "");
        assert_eq!(stand_in.request_count(), 1);
    }

    #[test]
    fn dropping_the_stand_in_closes_a_silent_connection() {
        let stand_in = StandIn::start(Script::always(Reply::NeverAnswer));
        let mut stream = std::net::TcpStream::connect(stand_in.addr()).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        stream
            .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            .unwrap();
        while stand_in.request_count() == 0 {
            std::thread::sleep(Duration::from_millis(5));
        }
        drop(stand_in);
        let mut rest = Vec::new();
        let read = stream.read_to_end(&mut rest);
        assert!(matches!(read, Ok(0)) || read.is_err(), "{read:?}");
    }
}
