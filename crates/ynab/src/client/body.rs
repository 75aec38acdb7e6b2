//! A 2xx answer's body read as it arrives: copied out of the connection in small pieces to a
//! blocking thread where the streaming parser reads `{"data": T}`, so a plan's export is never
//! held whole in memory; and the error a body in the wrong shape stands for.

use crate::error::Error;
use serde::Deserialize;
use serde::de::DeserializeOwned;

/// A 2xx answer whose body could not be read as `{"data": T}`: a read is `NotJson`; a change
/// YNAB accepted but whose answer cannot be read is applied or not, the answer does not say (D14).
pub(super) fn unreadable(status: u16, error: &str, is_read: bool) -> Error {
    tracing::warn!("YNAB {status}: answer not in the documented shape: {error}");
    if is_read {
        Error::NotJson { status }
    } else {
        Error::NotConfirmed {
            status,
            detail: "its answer could not be read".to_string(),
        }
    }
}

/// What reading a 2xx body into `{"data": T}` came to.
pub(super) enum Streamed<T> {
    /// The whole body arrived; parsed, or why not.
    Parsed(Result<T, String>),
    /// The body was cut short (a timeout, a dropped connection).
    Cut(reqwest::Error),
}

/// Pieces of the body in flight between the connection and the parser, and their size: a bound
/// on the memory a body takes (256 KiB), whatever its size.
const CHUNKS_IN_FLIGHT: usize = 4;
const PIECE: usize = 64 * 1024;

/// Read `response`'s body chunk by chunk into a JSON parser on a blocking thread, so the body is
/// never held whole (a large plan's export is megabytes). As with a body read whole then parsed,
/// a body cut short is `Cut` even when what came before it was not JSON: once the parser gives
/// up, the rest is still read (and dropped) to see whether it arrives.
pub(super) async fn streamed<T: DeserializeOwned + Send + 'static>(
    mut response: reqwest::Response,
) -> Streamed<T> {
    #[derive(Deserialize)]
    struct Envelope<T> {
        data: T,
    }
    let (sender, receiver) = tokio::sync::mpsc::channel(CHUNKS_IN_FLIGHT);
    let parser = tokio::task::spawn_blocking(move || {
        let reader = ChunkReader {
            receiver,
            chunk: bytes::Bytes::new(),
        };
        crate::shared::interning(|| crate::stream::from_reader::<Envelope<T>, _>(reader))
            .map(|envelope| envelope.data)
            .map_err(|error| error.to_string())
    });
    let mut sender = Some(sender);
    let total = response.content_length();
    let heard = crate::progress::is_heard();
    let mut received = 0u64;
    let read = loop {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                received += chunk.len() as u64;
                if heard {
                    crate::progress::report(crate::progress::Progress::Received {
                        bytes: received,
                        total,
                    });
                }
                // Copied out in small pieces, so that the connection's read buffer (hundreds of
                // kilobytes, which a chunk would keep alive while it waits) is free again at once.
                for piece in chunk.chunks(PIECE) {
                    if let Some(to_parser) = &sender
                        && to_parser
                            .send(bytes::Bytes::copy_from_slice(piece))
                            .await
                            .is_err()
                    {
                        // The parser gave up: read on, to tell a bad body from a cut one.
                        sender = None;
                    }
                }
            }
            Ok(None) => break Ok(()),
            Err(error) => break Err(error),
        }
    };
    drop(sender);
    let parsed = parser
        .await
        .unwrap_or_else(|error| Err(format!("the parser stopped: {error}")));
    match read {
        Ok(()) => Streamed::Parsed(parsed),
        Err(error) => Streamed::Cut(error),
    }
}

/// The body's chunks as a `Read`, for the parser's thread; the end of the channel is the end of
/// the body.
struct ChunkReader {
    receiver: tokio::sync::mpsc::Receiver<bytes::Bytes>,
    chunk: bytes::Bytes,
}

impl std::io::Read for ChunkReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let chunk = std::io::BufRead::fill_buf(self)?;
        let n = buf.len().min(chunk.len());
        buf[..n].copy_from_slice(&chunk[..n]);
        std::io::BufRead::consume(self, n);
        Ok(n)
    }
}

/// The chunks are the buffer: the parser reads them where they arrived, no copy between.
impl std::io::BufRead for ChunkReader {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        while self.chunk.is_empty() {
            match self.receiver.blocking_recv() {
                Some(chunk) => self.chunk = chunk,
                None => break,
            }
        }
        Ok(&self.chunk)
    }

    fn consume(&mut self, amount: usize) {
        bytes::Buf::advance(&mut self.chunk, amount);
    }
}

/// A body that is not YNAB's JSON (a proxy's HTML page, say), cut to a sentence's length.
pub(super) fn shortened(text: &str) -> String {
    const MOST: usize = 200;
    match text.char_indices().nth(MOST) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}
