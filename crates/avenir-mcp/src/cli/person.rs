//! The command line's MCP client: it declares elicitation only when a person sits at a terminal
//! (stdin and stdout both terminals), and answers the server's question by printing it and
//! reading the person's answer. `yes` applies; any other answer refuses (declined); end of input
//! (Ctrl-D) dismisses, and the command stops without showing a code.

use rmcp::model::{
    ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult, ElicitationAction,
    ElicitationCapability, FormElicitationCapability, Implementation, ProgressNotificationParam,
    ProtocolVersion,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ClientHandler, RoleClient};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// What the person typed, as the server reads an elicitation answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Typed {
    Yes,
    No,
    /// End of input: the question was dismissed.
    Dismissed,
}

/// `yes` (any case, surrounding spaces ignored) applies; any other line refuses; no line at all
/// (end of input) dismisses.
pub fn read_answer(line: Option<&str>) -> Typed {
    match line {
        None => Typed::Dismissed,
        Some(text) if text.trim().eq_ignore_ascii_case("yes") => Typed::Yes,
        Some(_) => Typed::No,
    }
}

/// The server's context and the id (or alias) of the plan a call reads.
type ReadPlan = (Arc<avenir::Context>, String);

/// The client of one `avenir-mcp call`.
#[derive(Debug, Clone)]
pub struct Person {
    /// A person can answer at the terminal.
    pub at_terminal: bool,
    /// Set when the person dismissed a question.
    pub dismissed: Arc<AtomicBool>,
    /// The server's context and the plan the call reads, once known: a question's amounts are
    /// written in that plan's currency format.
    pub plan: Arc<Mutex<Option<ReadPlan>>>,
    /// The line that moves while a long load is under way (stderr, a terminal only).
    pub progress: Arc<super::progress::Progress>,
}

impl Person {
    pub fn new(at_terminal: bool) -> Self {
        Person {
            at_terminal,
            dismissed: Arc::new(AtomicBool::new(false)),
            plan: Arc::new(Mutex::new(None)),
            progress: Arc::new(super::progress::Progress::new(false)),
        }
    }

    /// The same, showing the server's progress on stderr when `shown`.
    pub fn with_progress(mut self, shown: bool) -> Self {
        self.progress = Arc::new(super::progress::Progress::new(shown));
        self
    }

    pub fn was_dismissed(&self) -> bool {
        self.dismissed.load(Ordering::SeqCst)
    }

    /// The call reads `plan_id` through `context`.
    pub fn reads(&self, context: Arc<avenir::Context>, plan_id: String) {
        *self.plan.lock().unwrap_or_else(|p| p.into_inner()) = Some((context, plan_id));
    }

    /// The currency format of the plan the call reads, when it is loaded.
    async fn money(&self) -> Option<super::render::Money> {
        let known = self.plan.lock().unwrap_or_else(|p| p.into_inner()).clone();
        let (context, plan_id) = known?;
        let format = context.plans.currency_of(&plan_id).await?;
        Some(super::render::Money::of(&format))
    }
}

/// Read one line of stdin; `None` at end of input or on a read error.
fn read_line() -> Option<String> {
    let mut line = String::new();
    match std::io::stdin().read_line(&mut line) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(line),
    }
}

impl ClientHandler for Person {
    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, rmcp::ErrorData> {
        let ElicitRequestParams::FormElicitationParams { message, .. } = &request else {
            return Ok(ElicitResult::new(ElicitationAction::Cancel));
        };
        if !self.at_terminal {
            return Ok(ElicitResult::new(ElicitationAction::Cancel));
        }
        let money = self.money().await;
        self.progress.clear();
        {
            // On stdout, the terminal the person reads (stderr may be redirected).
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            // The server's question, each line made safe for the terminal, said to a person,
            // its amounts in the plan's format.
            for line in message.lines() {
                let said = super::words::for_people(&super::render::clean(line));
                let said = match &money {
                    Some(money) => super::render::amounts_in(&said, money),
                    None => said,
                };
                let _ = writeln!(out, "{said}");
            }
            let _ = write!(
                out,
                "Type yes to apply it; anything else refuses (Ctrl-D dismisses): "
            );
            let _ = out.flush();
        }
        let line = tokio::task::spawn_blocking(read_line).await.ok().flatten();
        Ok(match read_answer(line.as_deref()) {
            Typed::Yes => ElicitResult::new(ElicitationAction::Accept)
                .with_content(serde_json::json!({"value": true})),
            Typed::No => ElicitResult::new(ElicitationAction::Decline),
            Typed::Dismissed => {
                self.dismissed.store(true, Ordering::SeqCst);
                println!();
                ElicitResult::new(ElicitationAction::Cancel)
            }
        })
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let message = params.message.as_deref().unwrap_or("working");
        self.progress.heard(message);
    }

    fn get_info(&self) -> ClientConfig {
        let mut config = ClientConfig::default();
        config.capabilities = ClientCapabilities::default();
        if self.at_terminal {
            config.capabilities.elicitation =
                Some(ElicitationCapability::new().with_form(FormElicitationCapability::default()));
        }
        config.client_info = Implementation::new("avenir-mcp-cli", env!("CARGO_PKG_VERSION"));
        // The initialize handshake: the server asks during the call and waits for the answer.
        config.protocol_version = ProtocolVersion::V_2025_11_25;
        config
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_yes_applies_and_end_of_input_dismisses() {
        assert_eq!(read_answer(Some("yes\n")), Typed::Yes);
        assert_eq!(read_answer(Some("  YES \r\n")), Typed::Yes);
        for no in ["no\n", "\n", "y\n", "yes please\n", "oui\n"] {
            assert_eq!(read_answer(Some(no)), Typed::No, "{no:?}");
        }
        assert_eq!(read_answer(None), Typed::Dismissed);
    }
}
