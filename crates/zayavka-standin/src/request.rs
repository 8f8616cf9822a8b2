//! Reading one HTTP/1.1 request off a connection, and the record tests inspect afterwards.

use tokio::io::{AsyncRead, AsyncReadExt};

/// The stand-in refuses request heads larger than this, which no real client sends.
const MAX_HEAD_BYTES: usize = 64 * 1024;
/// The stand-in refuses request bodies larger than this, far above any prompt Zayavka sends.
const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;

/// One request as the stand-in received it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedRequest {
    /// The method, such as `POST`.
    pub method: String,
    /// The request target as sent, such as `/v1/chat/completions`.
    pub path: String,
    /// Every header in the order received, names lower-cased and values trimmed.
    pub headers: Vec<(String, String)>,
    /// The body, decoded as UTF-8 with invalid sequences replaced.
    pub body: String,
}

impl RecordedRequest {
    /// The value of the first header called `name` (compared case-insensitively).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(existing, _)| existing.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// The body parsed as JSON, or `Value::Null` when it is not JSON, so that assertions on a
    /// wrong body fail with a readable comparison rather than a panic here.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or(serde_json::Value::Null)
    }
}

/// Why a request could not be read.
#[derive(Debug)]
pub(crate) enum ReadError {
    /// The client closed the connection or the socket failed; there is nobody to answer.
    Gone,
    /// The request is malformed or too large; the stand-in answers `400` and closes.
    Malformed(&'static str),
}

/// Reads one request with a `Content-Length` body (or none), which is what reqwest and curl
/// send for a JSON POST; chunked request bodies are refused as malformed.
pub(crate) async fn read_request<S: AsyncRead + Unpin>(
    stream: &mut S,
) -> Result<RecordedRequest, ReadError> {
    let mut buffer = Vec::with_capacity(4096);
    let head_end = loop {
        if let Some(position) = find_head_end(&buffer) {
            break position;
        }
        if buffer.len() > MAX_HEAD_BYTES {
            return Err(ReadError::Malformed("request head too large"));
        }
        read_more(stream, &mut buffer).await?;
    };

    let head = std::str::from_utf8(&buffer[..head_end])
        .map_err(|_| ReadError::Malformed("request head is not UTF-8"))?;
    let mut lines = head.split("\r\n");
    let request_line = lines.next().unwrap_or_default();
    let mut parts = request_line.split(' ');
    let (Some(method), Some(path), Some(_version)) = (parts.next(), parts.next(), parts.next())
    else {
        return Err(ReadError::Malformed("bad request line"));
    };

    let mut headers = Vec::new();
    for line in lines.filter(|line| !line.is_empty()) {
        let (name, value) = line
            .split_once(':')
            .ok_or(ReadError::Malformed("bad header line"))?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
    }
    let mut request = RecordedRequest {
        method: method.to_owned(),
        path: path.to_owned(),
        headers,
        body: String::new(),
    };

    if request.header("transfer-encoding").is_some() {
        return Err(ReadError::Malformed(
            "chunked request bodies are not supported",
        ));
    }
    let content_length = match request.header("content-length") {
        Some(value) => value
            .parse::<usize>()
            .map_err(|_| ReadError::Malformed("bad content-length"))?,
        None => 0,
    };
    if content_length > MAX_BODY_BYTES {
        return Err(ReadError::Malformed("request body too large"));
    }

    let body_start = head_end + 4;
    while buffer.len() < body_start + content_length {
        read_more(stream, &mut buffer).await?;
    }
    request.body =
        String::from_utf8_lossy(&buffer[body_start..body_start + content_length]).into_owned();
    Ok(request)
}

fn find_head_end(buffer: &[u8]) -> Option<usize> {
    buffer.windows(4).position(|window| window == b"\r\n\r\n")
}

async fn read_more<S: AsyncRead + Unpin>(
    stream: &mut S,
    buffer: &mut Vec<u8>,
) -> Result<(), ReadError> {
    let mut chunk = [0u8; 8192];
    match stream.read(&mut chunk).await {
        Ok(0) | Err(_) => Err(ReadError::Gone),
        Ok(read) => {
            buffer.extend_from_slice(&chunk[..read]);
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> Result<RecordedRequest, ReadError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let mut reader = bytes;
        runtime.block_on(read_request(&mut reader))
    }

    #[test]
    fn reads_method_path_headers_and_body() {
        let request = read(
            b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer k\r\n\
              Content-Length: 7\r\n\r\n{\"a\":1}",
        )
        .unwrap();
        assert_eq!(request.method, "POST");
        assert_eq!(request.path, "/v1/chat/completions");
        assert_eq!(request.header("AUTHORIZATION"), Some("Bearer k"));
        assert_eq!(request.headers[0], ("host".to_owned(), "x".to_owned()));
        assert_eq!(request.json(), serde_json::json!({"a": 1}));
    }

    #[test]
    fn a_truncated_body_means_the_client_is_gone() {
        let result = read(b"POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc");
        assert!(matches!(result, Err(ReadError::Gone)));
    }

    #[test]
    fn a_chunked_body_is_refused() {
        let result = read(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
        assert!(matches!(result, Err(ReadError::Malformed(_))));
    }
}
