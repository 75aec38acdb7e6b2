//! PostgreSQL over TLS (issue 26), as managed services require: a server the test starts with a
//! throwaway certificate authority's certificate, accepting TLS connections only. The hosted
//! mode reaches it with `sslmode=verify-full` and that authority as `sslrootcert`, and refuses a
//! server its roots do not vouch for.

use crate::common::postgres::TestPostgres;
use crate::support;

use avenir_hosted::db::{Db, DbConfig, DbError};
use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair};
use serde_json::json;
use support::{World, call, structured};

/// A throwaway authority: its certificate (PEM), and a certificate it signs for `names` with
/// its key (both PEM).
fn authority(names: &[&str]) -> (String, String, String) {
    let ca_key = KeyPair::generate().expect("CA key");
    let mut ca = CertificateParams::new(Vec::<String>::new()).expect("CA params");
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca_cert = ca.self_signed(&ca_key).expect("CA certificate");
    let issuer = Issuer::new(ca, ca_key);
    let leaf_key = KeyPair::generate().expect("leaf key");
    let names = names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
    let leaf = CertificateParams::new(names)
        .expect("leaf params")
        .signed_by(&leaf_key, &issuer)
        .expect("leaf certificate");
    (ca_cert.pem(), leaf.pem(), leaf_key.serialize_pem())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hosted_mode_reaches_postgresql_over_verified_tls_only() {
    let (root, certificate, key) = authority(&["127.0.0.1", "localhost"]);
    let server = TestPostgres::start_tls(&certificate, &key).expect("a PostgreSQL over TLS");
    let url = server.create_database().expect("a database");
    let roots = server.dir().join("test-root.pem");
    std::fs::write(&roots, &root).expect("the root file");
    let (stranger, _, _) = authority(&["127.0.0.1"]);
    let stranger_roots = server.dir().join("stranger-root.pem");
    std::fs::write(&stranger_roots, &stranger).expect("another root file");

    // without TLS the server refuses
    let plain = Db::open(&DbConfig::Postgres(url.clone())).await;
    assert!(plain.is_err(), "a plain connection was accepted");
    // with roots that do not vouch for the server, this side refuses
    let doubted = format!(
        "{url}?sslmode=verify-full&sslrootcert={}",
        stranger_roots.display()
    );
    let error = Db::open(&DbConfig::Postgres(doubted))
        .await
        .expect_err("a certificate no root vouches for");
    assert!(matches!(error, DbError::Sql(_)), "{error:?}");

    // with the authority: the whole flow, over TLS
    let verified = format!("{url}?sslmode=verify-full&sslrootcert={}", roots.display());
    let world = World::start(DbConfig::Postgres(verified), 1).await;
    let alice = world.sign_in("alice", "write", 0).await;
    let plans = structured(&call(&alice.client, "list_plans", json!({})).await);
    assert_eq!(plans["result"][0]["id"], world.alice_plan, "{plans}");
}
