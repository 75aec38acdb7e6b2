//! A Client ID Metadata Document served over HTTPS on loopback, as an MCP client hosts one: a
//! throwaway certificate authority (rcgen) signs a certificate for 127.0.0.1, and the hosted
//! server is told to trust that authority (`metadata_roots`).

use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair};
use std::sync::Arc;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};

/// The document, where it is, and the authority that vouches for its host.
pub struct MetadataDocument {
    /// `https://127.0.0.1:PORT/client-metadata.json`: the client id.
    pub url: String,
    /// The authority's certificate (PEM).
    pub root_pem: Vec<u8>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for MetadataDocument {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl MetadataDocument {
    /// Serve a document naming `redirect_uri`.
    pub async fn serve(redirect_uri: &str) -> MetadataDocument {
        ynab::install_tls_provider();
        let ca_key = KeyPair::generate().expect("CA key");
        let mut ca = CertificateParams::new(Vec::<String>::new()).expect("CA params");
        ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        let ca_cert = ca.self_signed(&ca_key).expect("CA certificate");
        let issuer = Issuer::new(ca, ca_key);
        let leaf_key = KeyPair::generate().expect("leaf key");
        let leaf = CertificateParams::new(vec!["127.0.0.1".to_string()])
            .expect("leaf params")
            .signed_by(&leaf_key, &issuer)
            .expect("leaf certificate");
        let config = ServerConfig::builder()
            .with_no_client_auth()
            .with_single_cert(
                vec![CertificateDer::from(leaf.der().to_vec())],
                PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(leaf_key.serialize_der())),
            )
            .expect("TLS config");
        let acceptor = TlsAcceptor::from(Arc::new(config));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("listener");
        let url = format!(
            "https://127.0.0.1:{}/client-metadata.json",
            listener.local_addr().expect("address").port()
        );
        let document = serde_json::json!({
            "client_id": url,
            "client_name": "avenir-hosted test client",
            "redirect_uris": [redirect_uri],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none",
        })
        .to_string();
        let task = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let acceptor = acceptor.clone();
                let body = document.clone();
                tokio::spawn(async move {
                    let Ok(mut tls) = acceptor.accept(stream).await else {
                        return;
                    };
                    // one request, read to the end of its headers
                    let mut seen = Vec::new();
                    let mut buffer = [0u8; 1024];
                    while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
                        match tls.read(&mut buffer).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => seen.extend_from_slice(&buffer[..n]),
                        }
                    }
                    let answer = format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                        body.len()
                    );
                    let _ = tls.write_all(answer.as_bytes()).await;
                    let _ = tls.shutdown().await;
                });
            }
        });
        MetadataDocument {
            url,
            root_pem: ca_cert.pem().into_bytes(),
            task,
        }
    }
}
