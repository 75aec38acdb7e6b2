//! A throwaway PostgreSQL for tests.
//!
//! [`TestPostgres::start`] runs Debian's (or any) `initdb` and `postgres` on a fresh directory
//! under the system's temporary directory, listening on a free loopback port and a socket in that
//! directory, with `fsync` off; [`TestPostgres::create_database`] gives each test an empty
//! database of its own. Dropping it stops the server and removes the directory.
//!
//! A test binary usually keeps one in a `static` (`OnceLock`), which Rust never drops: so that the
//! server never outlives the tests, `start` also leaves a small watcher (`sh`) that stops the
//! server and removes the directory within a second or two of the test process ending, however it
//! ends.
//!
//! PostgreSQL refuses to run as root. As root (this machine and CI), the directory is given to
//! the `postgres` user (which Debian's package creates) and `initdb` and `postgres` run as that
//! user through `setpriv` (or `runuser`).

use std::net::TcpListener;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How long the server may take to accept connections (a shared, busy machine).
const START_LIMIT: Duration = Duration::from_secs(120);

/// A PostgreSQL server of its own, stopped and removed when dropped.
#[derive(Debug)]
pub struct TestPostgres {
    dir: PathBuf,
    bin: PathBuf,
    port: u16,
    child: Option<Child>,
    /// The user the server runs as, when it is not this process's.
    run_as: Option<String>,
    databases: AtomicU64,
}

impl TestPostgres {
    /// Start a server; the error says what is missing (PostgreSQL's programs, the `postgres`
    /// user) or what the server logged.
    pub fn start() -> Result<TestPostgres, String> {
        TestPostgres::start_with(None)
    }

    /// A server that accepts TCP connections over TLS only, presenting `certificate` (PEM, its
    /// chain) with `key` (PEM); its local socket stays plain (for `createdb`).
    pub fn start_tls(certificate: &str, key: &str) -> Result<TestPostgres, String> {
        TestPostgres::start_with(Some((certificate, key)))
    }

    fn start_with(tls: Option<(&str, &str)>) -> Result<TestPostgres, String> {
        let bin = find_bin()?;
        let as_root = running_as_root();
        static STARTED: AtomicU64 = AtomicU64::new(0);
        let dir = base_dir(as_root).join(format!(
            "avenir-test-pg-{}-{}-{}",
            std::process::id(),
            STARTED.fetch_add(1, Ordering::Relaxed),
            chrono::Utc::now().timestamp_micros()
        ));
        std::fs::create_dir(&dir)
            .map_err(|e| format!("Could not make the directory {}: {e}", dir.display()))?;
        let mut server = TestPostgres {
            dir: dir.clone(),
            bin,
            port: 0,
            child: None,
            run_as: None,
            databases: AtomicU64::new(0),
        };
        // From here on, dropping `server` removes the directory (and stops what was started).
        if as_root {
            if !user_exists("postgres") {
                return Err(
                    "PostgreSQL refuses to run as root, and there is no `postgres` user to run it \
                     as: install Debian's postgresql package (it creates the user), or run the \
                     tests as another user."
                        .into(),
                );
            }
            let status = Command::new("chown")
                .args(["-R", "postgres:"])
                .arg(&dir)
                .status()
                .map_err(|e| format!("Could not run chown: {e}"))?;
            if !status.success() {
                return Err(format!("chown postgres {} failed: {status}", dir.display()));
            }
            server.run_as = Some("postgres".into());
        }
        let data = dir.join("data");
        let init_log = dir.join("initdb.log");
        let log_file = || {
            std::fs::File::create(&init_log)
                .map_err(|e| format!("Could not make {}: {e}", init_log.display()))
        };
        let status = server
            .command("initdb")
            .arg("-D")
            .arg(&data)
            .args([
                "-A",
                "trust",
                "-U",
                "postgres",
                "--no-sync",
                "-E",
                "UTF8",
                "--locale=C",
            ])
            .stdin(Stdio::null())
            .stdout(log_file()?)
            .stderr(log_file()?)
            .status()
            .map_err(|e| format!("Could not run initdb: {e}"))?;
        if !status.success() {
            return Err(format!(
                "initdb failed ({status}); its output:\n{}",
                std::fs::read_to_string(&init_log).unwrap_or_default()
            ));
        }
        let mut settings = vec![];
        if let Some((certificate, key)) = tls {
            server.only_tls(&data, certificate, key)?;
            settings = vec!["-c", "ssl=on"];
        }
        server.port = free_port()?;
        let log_path = dir.join("server.log");
        let log = std::fs::File::create(&log_path)
            .map_err(|e| format!("Could not make {}: {e}", log_path.display()))?;
        let log2 = log
            .try_clone()
            .map_err(|e| format!("Could not open {}: {e}", log_path.display()))?;
        let child = server
            .command("postgres")
            .arg("-D")
            .arg(&data)
            .arg("-p")
            .arg(server.port.to_string())
            .arg("-k")
            .arg(&dir)
            .args(["-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"])
            .args(["-c", "max_connections=200", "-c", "full_page_writes=off"])
            .args(["-c", "synchronous_commit=off"])
            .args(&settings)
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(log2)
            .spawn()
            .map_err(|e| format!("Could not run postgres: {e}"))?;
        server.child = Some(child);
        server.leave_watcher();
        server.wait_ready(&data, &log_path)?;
        Ok(server)
    }

    /// Its directory (data, socket and logs), removed when it is dropped.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The loopback port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// A new, empty database of its own name; its URL (user `postgres`, no password, loopback).
    pub fn create_database(&self) -> Result<String, String> {
        let name = format!(
            "test_{}_{}",
            std::process::id(),
            self.databases.fetch_add(1, Ordering::Relaxed)
        );
        let createdb = self.bin.join("createdb");
        let output = Command::new(&createdb)
            .args([
                "-h",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-U",
                "postgres",
                &name,
            ])
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("Could not run {}: {e}", createdb.display()))?;
        if !output.status.success() {
            return Err(format!(
                "createdb {name} failed ({}): {}",
                output.status,
                String::from_utf8_lossy(&output.stderr).trim()
            ));
        }
        Ok(format!(
            "postgres://postgres@127.0.0.1:{}/{name}",
            self.port
        ))
    }

    /// The server's certificate and key in its data directory (the server's user's own), and
    /// TCP connections allowed over TLS only.
    fn only_tls(&self, data: &Path, certificate: &str, key: &str) -> Result<(), String> {
        use std::os::unix::fs::PermissionsExt;
        let write = |name: &str, text: &str| {
            let path = data.join(name);
            std::fs::write(&path, text)
                .and_then(|()| {
                    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))
                })
                .map_err(|e| format!("Could not write {}: {e}", path.display()))
        };
        write("server.crt", certificate)?;
        write("server.key", key)?;
        write(
            "pg_hba.conf",
            "local all all trust\nhostssl all all 127.0.0.1/32 trust\n",
        )?;
        if let Some(user) = &self.run_as {
            let status = Command::new("chown")
                .arg(format!("{user}:"))
                .args(["server.crt", "server.key", "pg_hba.conf"].map(|f| data.join(f)))
                .status()
                .map_err(|e| format!("Could not run chown: {e}"))?;
            if !status.success() {
                return Err(format!(
                    "chown of the server's certificate failed: {status}"
                ));
            }
        }
        Ok(())
    }

    /// Freeze the server (SIGSTOP to the postmaster and each of its processes): it keeps its
    /// connections but answers nothing, as a hung database would.
    pub fn pause(&self) {
        self.signal_all("-STOP");
    }

    /// Thaw the server [`TestPostgres::pause`] froze.
    pub fn resume(&self) {
        self.signal_all("-CONT");
    }

    /// `sig` to the postmaster and its children, each by its pid.
    fn signal_all(&self, sig: &str) {
        let Some(postmaster) = std::fs::read_to_string(self.dir.join("data/postmaster.pid"))
            .ok()
            .and_then(|t| t.lines().next().map(|l| l.trim().to_owned()))
        else {
            panic!("the test server's postmaster.pid cannot be read");
        };
        let children = Command::new("ps")
            .args(["-o", "pid=", "--ppid", &postmaster])
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default();
        let mut pids: Vec<String> = children.split_whitespace().map(str::to_owned).collect();
        pids.push(postmaster);
        let status = Command::new("kill")
            .arg(sig)
            .args(&pids)
            .status()
            .expect("kill");
        assert!(status.success(), "kill {sig} {pids:?}");
    }

    fn command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        let mut command = match &self.run_as {
            Some(user) if Path::new("/usr/bin/setpriv").exists() => {
                let mut c = Command::new("/usr/bin/setpriv");
                c.args(["--reuid", user, "--regid", user, "--init-groups", "--"]);
                c.arg(path);
                c
            }
            Some(user) => {
                let mut c = Command::new("runuser");
                c.args(["-u", user, "--"]);
                c.arg(path);
                c
            }
            None => Command::new(path),
        };
        command.current_dir(&self.dir);
        command
    }

    /// A shell that waits for this process to end, then stops the server and removes the
    /// directory (for a server kept in a `static`, which is never dropped).
    fn leave_watcher(&self) {
        let script = r#"
            while kill -0 "$1" 2>/dev/null; do sleep 0.2; done
            pid=$(head -n 1 "$2/data/postmaster.pid" 2>/dev/null)
            if [ -n "$pid" ]; then
                kill -INT "$pid" 2>/dev/null
                i=0
                while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
                kill -QUIT "$pid" 2>/dev/null
                sleep 0.5
                kill -KILL "$pid" 2>/dev/null
            fi
            rm -rf "$2"
        "#;
        // The watcher's failure to start only means a `static` server is left to the end of the
        // machine's session: not worth failing the tests for.
        let _ = Command::new("sh")
            .args(["-c", script, "avenir-test-pg-watcher"])
            .arg(std::process::id().to_string())
            .arg(&self.dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
    }

    fn wait_ready(&mut self, data: &Path, log_path: &Path) -> Result<(), String> {
        let started = Instant::now();
        let pid_file = data.join("postmaster.pid");
        loop {
            // postmaster.pid's eighth line is the server's status, "ready" once it accepts
            // connections.
            if let Ok(text) = std::fs::read_to_string(&pid_file)
                && text.lines().nth(7).is_some_and(|s| s.trim() == "ready")
            {
                return Ok(());
            }
            let exited = match self.child.as_mut().map(|c| c.try_wait()) {
                Some(Ok(Some(status))) => Some(status.to_string()),
                Some(Err(e)) => Some(e.to_string()),
                _ => None,
            };
            if exited.is_some() || started.elapsed() > START_LIMIT {
                let why = match exited {
                    Some(status) => format!("exited ({status})"),
                    None => format!("did not accept connections within {START_LIMIT:?}"),
                };
                return Err(format!(
                    "The test PostgreSQL {why}; its log:\n{}",
                    std::fs::read_to_string(log_path).unwrap_or_default()
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn stop(&mut self) {
        let Some(mut child) = self.child.take() else {
            return;
        };
        // The postmaster's own pid (the child may be `runuser` in front of it). SIGINT is
        // PostgreSQL's fast shutdown: it disconnects the sessions still open, where SIGTERM
        // (smart) would wait for them.
        let pid = std::fs::read_to_string(self.dir.join("data/postmaster.pid"))
            .ok()
            .and_then(|t| t.lines().next().map(str::to_owned))
            .unwrap_or_else(|| child.id().to_string());
        let signal = |sig: &str| {
            let _ = Command::new("kill")
                .args([sig, &pid])
                .stderr(Stdio::null())
                .status();
        };
        signal("-INT");
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        signal("-QUIT");
        std::thread::sleep(Duration::from_millis(500));
        signal("-KILL");
        let _ = child.kill();
        let _ = child.wait();
    }
}

impl Drop for TestPostgres {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The directory of `initdb` and `postgres`: on PATH, else the newest
/// `/usr/lib/postgresql/*/bin`.
fn find_bin() -> Result<PathBuf, String> {
    let has_both = |dir: &Path| dir.join("initdb").is_file() && dir.join("postgres").is_file();
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            if has_both(&dir) {
                // Debian links them from elsewhere: use the real directory, where createdb is.
                let real = std::fs::canonicalize(dir.join("initdb"))
                    .ok()
                    .and_then(|p| p.parent().map(Path::to_path_buf))
                    .filter(|d| has_both(d));
                return Ok(real.unwrap_or(dir));
            }
        }
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse::<u32>().ok()?;
            Some((version, entry.path().join("bin")))
        })
        .filter(|(_, bin)| has_both(bin))
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin).ok_or_else(|| {
        "PostgreSQL's initdb and postgres were not found (on PATH or in /usr/lib/postgresql/*/bin): \
         install Debian's postgresql package (`apt-get install postgresql`)."
            .into()
    })
}

/// The system's temporary directory, unless running as root with one the `postgres` user cannot
/// reach (a `TMPDIR` under `/root`): then `/tmp`.
fn base_dir(as_root: bool) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let temp = std::env::temp_dir();
    let reachable = temp
        .ancestors()
        .all(|dir| std::fs::metadata(dir).is_ok_and(|m| m.permissions().mode() & 0o001 != 0));
    if as_root && !reachable {
        PathBuf::from("/tmp")
    } else {
        temp
    }
}

fn running_as_root() -> bool {
    // /proc/self belongs to the process's effective user.
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

fn user_exists(name: &str) -> bool {
    Command::new("id")
        .arg("-u")
        .arg(name)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn free_port() -> Result<u16, String> {
    let listener = TcpListener::bind("127.0.0.1:0")
        .map_err(|e| format!("Could not find a free loopback port: {e}"))?;
    listener
        .local_addr()
        .map(|a| a.port())
        .map_err(|e| format!("Could not find a free loopback port: {e}"))
}
