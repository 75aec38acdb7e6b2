//! TLS to PostgreSQL, as managed services require: `sslmode=require`, `verify-ca` or
//! `verify-full` in `AVENIR_MCP_DATABASE_URL`, through rustls with ring (the one TLS stack of the
//! project). The server's certificate is always verified — chain and host name — against the
//! system's roots, or the roots of the PEM file `sslrootcert=` names: unlike libpq, `require`
//! does not mean "encrypted but anyone's certificate", which would let a machine in the middle
//! read every grant and journal. `disable`, `prefer` or no `sslmode` connect without TLS (a local
//! socket or loopback).

use super::error::DbError;
use rustls::RootCertStore;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use std::path::PathBuf;
use std::sync::Arc;
use tokio_postgres_rustls::MakeRustlsConnect;

/// What the URL asks of TLS, read off it before the driver parses the rest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TlsWanted {
    /// `sslmode=require`, `verify-ca` or `verify-full`.
    pub(crate) mode: String,
    /// `sslrootcert=`: a PEM file of the roots to trust instead of the system's.
    pub(crate) root_file: Option<PathBuf>,
}

/// `url` without its `sslmode` and `sslrootcert` (which the driver does not take as they are
/// used here), and TLS when they ask for it. A URL of `key=value` words is left to the driver
/// (its `sslmode=require` then asks for TLS with the system's roots: [`wanted_by_driver`]).
pub(crate) fn split_url(url: &str) -> Result<(String, Option<TlsWanted>), DbError> {
    let lower = url.trim_start().to_ascii_lowercase();
    let is_url = lower.starts_with("postgres://") || lower.starts_with("postgresql://");
    let Some((head, query)) = url.split_once('?').filter(|_| is_url) else {
        return Ok((url.to_string(), None));
    };
    let mut mode = None;
    let mut root_file = None;
    let mut kept = Vec::new();
    for (key, value) in url::form_urlencoded::parse(query.as_bytes()) {
        match key.as_ref() {
            "sslmode" => mode = Some(value.to_ascii_lowercase()),
            "sslrootcert" => root_file = Some(PathBuf::from(value.as_ref())),
            _ => kept.push((key.into_owned(), value.into_owned())),
        }
    }
    let rebuilt = if kept.is_empty() {
        head.to_string()
    } else {
        let query = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(kept)
            .finish();
        format!("{head}?{query}")
    };
    let tls = match mode.as_deref() {
        None | Some("disable" | "allow" | "prefer") => None,
        Some("require" | "verify-ca" | "verify-full") => Some(TlsWanted {
            mode: mode.unwrap_or_default(),
            root_file,
        }),
        Some(other) => return Err(DbError::SslMode(other.to_string())),
    };
    Ok((rebuilt, tls))
}

/// TLS with the system's roots when the driver read `sslmode=require` (a `key=value` URL).
pub(crate) fn wanted_by_driver(config: &tokio_postgres::Config) -> Option<TlsWanted> {
    (config.get_ssl_mode() == tokio_postgres::config::SslMode::Require).then(|| TlsWanted {
        mode: "require".into(),
        root_file: None,
    })
}

/// The connector for `wanted`: rustls with ring, verifying against its roots.
pub(crate) fn connector(wanted: &TlsWanted) -> Result<MakeRustlsConnect, DbError> {
    let roots = match &wanted.root_file {
        Some(path) => file_roots(path)?,
        None => system_roots()?,
    };
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .map_err(DbError::TlsSetup)?
    .with_root_certificates(roots)
    .with_no_client_auth();
    Ok(MakeRustlsConnect::new(config))
}

fn file_roots(path: &PathBuf) -> Result<RootCertStore, DbError> {
    let unreadable = |why: String| DbError::RootFile {
        path: path.clone(),
        why,
    };
    let certificates: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(path)
        .map_err(|e| unreadable(e.to_string()))?
        .collect::<Result<_, _>>()
        .map_err(|e| unreadable(e.to_string()))?;
    let mut roots = RootCertStore::empty();
    let (added, _) = roots.add_parsable_certificates(certificates);
    if added == 0 {
        return Err(unreadable("it holds no certificate".into()));
    }
    Ok(roots)
}

fn system_roots() -> Result<RootCertStore, DbError> {
    let found = rustls_native_certs::load_native_certs();
    let mut roots = RootCertStore::empty();
    roots.add_parsable_certificates(found.certs);
    if roots.is_empty() {
        return Err(DbError::NoSystemRoots);
    }
    Ok(roots)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_url_says_whether_to_use_tls_and_which_roots() {
        let (url, tls) =
            split_url("postgres://u:p@db.example/avenir?sslmode=verify-full&sslrootcert=/ca.pem")
                .unwrap();
        assert_eq!(url, "postgres://u:p@db.example/avenir");
        assert_eq!(
            tls,
            Some(TlsWanted {
                mode: "verify-full".into(),
                root_file: Some("/ca.pem".into())
            })
        );
        let (url, tls) =
            split_url("postgres://u@/avenir?host=/run/postgresql&sslmode=disable").unwrap();
        assert_eq!(url, "postgres://u@/avenir?host=%2Frun%2Fpostgresql");
        assert_eq!(tls, None);
        assert!(matches!(
            split_url("postgres://u@h/a?sslmode=sometimes"),
            Err(DbError::SslMode(_))
        ));
        let words = "host=/run/postgresql user=avenir";
        assert_eq!(split_url(words).unwrap(), (words.to_string(), None));
    }
}
