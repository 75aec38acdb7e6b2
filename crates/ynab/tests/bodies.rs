//! 2xx bodies as they arrive, parsed while they stream: a body that is not YNAB's JSON is
//! `NotJson` (a read) or `NotConfirmed` (a write), never retried; a body cut short is a read
//! failure, retried for a read (three tries) and `MaybeApplied` for a write, even when what
//! came before the cut was not JSON either. A raw TCP server stands in for YNAB.

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use ynab::{BaseUrl, Client, Error, Pacer, Token, TokenSource};

/// A server answering every request with `head` + `body`, then closing the connection; it
/// counts the requests it got.
async fn serve(
    status: &'static str,
    body: String,
    length: usize,
) -> (String, tokio::sync::watch::Receiver<u32>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let address = listener.local_addr().expect("its address");
    let (count, seen) = tokio::sync::watch::channel(0u32);
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            count.send_modify(|n| *n += 1);
            let mut request = vec![0u8; 8192];
            let _ = socket.read(&mut request).await;
            let answer = format!(
                "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {length}\r\nconnection: close\r\n\r\n{body}"
            );
            let _ = socket.write_all(answer.as_bytes()).await;
            let _ = socket.shutdown().await;
        }
    });
    (format!("http://{address}/v1"), seen)
}

fn client(base: &str) -> Client {
    Client::new(BaseUrl::new(base), TokenSource::Fixed(Token::new("t")))
        .expect("the HTTP client builds")
        .with_pacer(Pacer::memory(180))
}

/// A large export-like body: many chunks reach the parser.
fn large(data: &str) -> String {
    let payees: Vec<String> = (0..20_000)
        .map(|i| {
            format!(
                r#"{{"id":"p-{i}","name":"PAYEE {}","deleted":false}}"#,
                i % 50
            )
        })
        .collect();
    format!(r#"{{"data":{{"payees":[{}]{data}}}}}"#, payees.join(","))
}

#[tokio::test]
async fn a_large_body_is_parsed_as_it_streams() {
    let body = large("");
    let (base, seen) = serve("200 OK", body.clone(), body.len()).await;
    let payees = client(&base).payees("p").await.expect("the payees");
    assert_eq!(payees.len(), 20_000);
    assert_eq!(payees[19_999].id, "p-19999");
    assert_eq!(payees[49].name, "PAYEE 49");
    assert_eq!(*seen.borrow(), 1);
}

#[tokio::test]
async fn a_body_that_is_not_json_is_not_json_and_not_retried() {
    let body = "<html>a proxy's page</html>".to_string();
    let (base, seen) = serve("200 OK", body.clone(), body.len()).await;
    let got = client(&base).payees("p").await;
    assert_eq!(got, Err(Error::NotJson { status: 200 }));
    assert_eq!(*seen.borrow(), 1);
    let write = client(&base).rename_payee("p", "x", "y").await;
    assert!(
        matches!(write, Err(Error::NotConfirmed { status: 200, .. })),
        "{write:?}"
    );
}

#[tokio::test]
async fn a_body_cut_short_is_retried_for_a_read_and_may_be_applied_for_a_write() {
    for body in [large(""), format!("<html>{}", "x".repeat(300_000))] {
        // The headers promise more than is sent: the read fails at the end, after the parser
        // has seen all there was (or given up long before).
        let (base, seen) = serve("200 OK", body.clone(), body.len() + 10).await;
        let got = client(&base).payees("p").await;
        assert!(
            matches!(got, Err(Error::Unreachable { attempts: 3, .. })),
            "{got:?}"
        );
        assert_eq!(*seen.borrow(), 3);
        let write = client(&base).rename_payee("p", "x", "y").await;
        assert!(
            matches!(write, Err(Error::MaybeApplied { .. })),
            "{write:?}"
        );
        assert_eq!(*seen.borrow(), 4);
    }
}
