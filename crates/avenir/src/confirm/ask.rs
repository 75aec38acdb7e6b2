//! How to ask (`docs/contract/writes.md` §4.3–4.4): a confirmation code, the 2026-07-28
//! input-required round trip with a sealed state, or an in-call question on an older protocol; and
//! how the person's answer is read.

use super::{
    ANSWER_INVALID, AskContext, BAD_CODE, BUDGET_CHANGED, CODE_NOT_CHECKED, CODE_NOT_KEPT,
    Confirmations, Decision, PAGE_NOT_KEPT, cannot_ask, code_not_enough, codes,
};
use crate::confirmations::Risk;
use crate::confirmations::pages::{PageHost, PageState};
use crate::context::Context;
use rmcp::model::{
    ElicitRequest, ElicitRequestParams, ElicitationSchema, InputRequest, InputRequests,
    InputRequiredResult,
};
use serde_json::{Map, Value};

/// A code the agent passed back: it applies when it was issued for this very subject and call.
async fn redeem(
    confirmations: &crate::confirmations::Confirmations,
    presented: &str,
    fp: &str,
    call: &str,
) -> Decision {
    match confirmations.codes.redeem_async(presented, fp, call).await {
        Ok(codes::Redeemed::Valid) => Decision::Apply,
        Ok(codes::Redeemed::PlanChanged) => Decision::Refused(BUDGET_CHANGED.into()),
        Ok(codes::Redeemed::Refused) => Decision::Refused(BAD_CODE.into()),
        Err(error) => {
            tracing::warn!("{error}");
            Decision::Refused(CODE_NOT_CHECKED.into())
        }
    }
}

/// What a write falls back to when nobody answered: a code where the policy allows one,
/// otherwise declined.
struct Fallback<'a> {
    confirmations: &'a Confirmations,
    /// Only the person's own answer confirms: no code is issued, none accepted.
    required: bool,
    call: &'a str,
}

impl Fallback<'_> {
    async fn code(&self, fp: &str) -> Decision {
        match self.confirmations.codes.issue_async(fp, self.call).await {
            Ok(code) => Decision::Code(code),
            Err(error) => {
                tracing::warn!("{error}");
                Decision::Refused(CODE_NOT_KEPT.into())
            }
        }
    }

    /// A question dismissed (or one no one could answer): declined when only the person's
    /// answer confirms, else a code.
    async fn dismissed(&self, fp: &str) -> Decision {
        match self.required {
            true => Decision::Declined,
            false => self.code(fp).await,
        }
    }

    async fn answered(&self, answer: Answer, fp: &str) -> Decision {
        match answer {
            Answer::Yes => Decision::Recheck,
            Answer::No => Decision::Declined,
            Answer::Dismissed => self.dismissed(fp).await,
        }
    }
}

/// Choose how to ask and read the answer (`docs/contract/writes.md` §4.3, §4.4).
pub(crate) async fn decide(
    context: &Context,
    ask: &AskContext,
    (tool, risk): (&str, Risk),
    fp: &str,
    question: &str,
) -> Decision {
    let confirmations = &context.confirmations;
    let call = associated_data(tool, &ask.arguments);
    let required = !confirmations.policy.codes_allowed(risk);
    let fallback = Fallback {
        confirmations,
        required,
        call: &call,
    };
    if let Some(presented) = &ask.confirmation {
        if required {
            return Decision::Refused(code_not_enough(confirmations.policy, risk).into());
        }
        return redeem(confirmations, presented, fp, &call).await;
    }
    // A client that can send the person to a page: the server's page, in either era.
    if ask.url_mode
        && let Some(host) = &confirmations.pages
    {
        let timeout = confirmations.elicitation_timeout;
        return match (ask.modern, &ask.peer) {
            (true, _) => match modern_page(confirmations, host, ask, &call, fp, question).await {
                Paged::Decided(decision) => decision,
                Paged::Dismissed => fallback.dismissed(fp).await,
            },
            (false, Some(peer)) => {
                let answer = by_page(host, peer, fp, question, timeout).await;
                fallback.answered(answer, fp).await
            }
            (false, None) => fallback.dismissed(fp).await,
        };
    }
    if !ask.can_ask {
        return match (required, &confirmations.pages) {
            // A hosted server's page reaches the person from any device they signed in on.
            (true, Some(host @ PageHost::Hosted(_))) => on_page(host, &call, fp, question).await,
            (true, _) => Decision::Refused(cannot_ask(confirmations.policy, risk).into()),
            (false, _) => fallback.code(fp).await,
        };
    }
    if ask.modern {
        return modern_form(&fallback, ask, fp, question).await;
    }
    let Some(peer) = &ask.peer else {
        return fallback.dismissed(fp).await;
    };
    let timeout = Some(confirmations.elicitation_timeout);
    let answer = match peer
        .create_elicitation_with_timeout(form(question), timeout)
        .await
    {
        Ok(result) => read_answer(&serde_json::to_value(&result).unwrap_or(Value::Null)),
        Err(error) => {
            tracing::info!("the in-call question got no answer: {error}");
            Answer::Dismissed
        }
    };
    fallback.answered(answer, fp).await
}

/// The form on 2026-07-28's round trip: asked with a sealed state, answered on the next call.
async fn modern_form(
    fallback: &Fallback<'_>,
    ask: &AskContext,
    fp: &str,
    question: &str,
) -> Decision {
    let confirmations = fallback.confirmations;
    let associated = fallback.call;
    let Some(state) = &ask.request_state else {
        return input_required(confirmations, associated, fp, question);
    };
    let Some(sealed) = confirmations.states.open(associated.as_bytes(), state) else {
        return Decision::Refused(ANSWER_INVALID.into());
    };
    let Some(answer) = ask.input_responses.as_ref().and_then(|r| r.get("confirm")) else {
        // A retry without the answer: ask again (the state's nonce stays unspent).
        return input_required(confirmations, associated, fp, question);
    };
    if !confirmations.states.spend_async(&sealed.nonce).await {
        return Decision::Refused(ANSWER_INVALID.into());
    }
    match read_answer(answer) {
        Answer::Yes if sealed.fingerprint == fp => Decision::Apply,
        Answer::Yes => Decision::Refused(BUDGET_CHANGED.into()),
        Answer::No => Decision::Declined,
        Answer::Dismissed => fallback.dismissed(fp).await,
    }
}

/// Ask on a page (`confirmations::pages`): the client is asked to send the person to it, then
/// the person's answer there is awaited. The client learns that the page is done
/// (`notifications/elicitation/complete`) whatever the outcome.
async fn by_page(
    host: &PageHost,
    peer: &rmcp::Peer<rmcp::RoleServer>,
    fp: &str,
    question: &str,
    timeout: std::time::Duration,
) -> Answer {
    use rmcp::model::{CustomNotification, ElicitationAction, ServerNotification};
    let key = crate::random::base64url::<16>();
    let url = match host.open(question, &key, fp).await {
        Ok(url) => url,
        Err(error) => {
            tracing::warn!("{error}");
            return Answer::Dismissed;
        }
    };
    let elicitation_id = crate::random::base64url::<16>();
    let params = ElicitRequestParams::UrlElicitationParams {
        meta: None,
        message: PAGE_MESSAGE.to_string(),
        url,
        elicitation_id: elicitation_id.clone(),
    };
    let asked = peer
        .create_elicitation_with_timeout(params, Some(timeout))
        .await;
    let answer = match asked.map(|result| result.action) {
        Ok(ElicitationAction::Accept) => match host.wait(&key, timeout).await {
            Some(true) => Answer::Yes,
            Some(false) => Answer::No,
            None => Answer::Dismissed,
        },
        Ok(ElicitationAction::Decline) => Answer::No,
        Ok(_) => Answer::Dismissed,
        Err(error) => {
            tracing::info!("the page was not opened: {error}");
            Answer::Dismissed
        }
    };
    host.close(&key).await;
    let id = serde_json::json!({"elicitationId": elicitation_id});
    let done = CustomNotification::new("notifications/elicitation/complete", Some(id));
    if let Err(error) = peer
        .send_notification(ServerNotification::CustomNotification(done))
        .await
    {
        tracing::info!("the client was not told the page is done: {error}");
    }
    answer
}

/// A hosted server's page for a client that cannot ask, where a code may not confirm: the
/// answer names the page (the person opens it in a browser where they signed in, on any
/// device); the agent's next call with the same arguments takes the answer. The page is kept
/// under the call's digest; a page showing an older preview is replaced.
async fn on_page(host: &PageHost, call: &str, fp: &str, question: &str) -> Decision {
    let key = crate::digest::text_sha256_hex(call);
    let kept = match host.state(&key).await {
        Ok(kept) => kept,
        Err(error) => {
            tracing::warn!("{error}");
            return Decision::Refused(PAGE_NOT_KEPT.into());
        }
    };
    match kept {
        Some(PageState {
            answer: Some(yes),
            fingerprint,
            ..
        }) => {
            host.close(&key).await;
            match yes {
                // This call read the plan without being asked to: read it again from YNAB.
                true if fingerprint == fp => Decision::Recheck,
                true => Decision::Refused(BUDGET_CHANGED.into()),
                false => Decision::Declined,
            }
        }
        Some(PageState {
            answer: None,
            url,
            fingerprint,
        }) if fingerprint == fp => Decision::OnPage {
            url,
            list: host.list_url(),
        },
        _ => match host.open(question, &key, fp).await {
            Ok(url) => Decision::OnPage {
                url,
                list: host.list_url(),
            },
            Err(error) => {
                tracing::warn!("{error}");
                Decision::Refused(PAGE_NOT_KEPT.into())
            }
        },
    }
}

/// What the 2026-07-28 page round trip decided, or a dismissal (then as the policy says).
enum Paged {
    Decided(Decision),
    Dismissed,
}

/// The page on 2026-07-28's round trip: the first call opens a page whose answer is kept under
/// the sealed state's nonce and asks the client to send the person there; the client's next call
/// (its `accept` says the person was sent) takes the answer. Not answered yet: asked again, same
/// page. The state is spent with the answer, and a yes applies only to the fingerprint it was
/// asked for.
async fn modern_page(
    confirmations: &Confirmations,
    host: &PageHost,
    ask: &AskContext,
    call: &str,
    fp: &str,
    question: &str,
) -> Paged {
    let invalid = || Paged::Decided(Decision::Refused(ANSWER_INVALID.into()));
    let Some(state) = &ask.request_state else {
        return first_page(confirmations, host, call, fp, question).await;
    };
    let Some(sealed) = confirmations.states.open(call.as_bytes(), state) else {
        return invalid();
    };
    let action = ask
        .input_responses
        .as_ref()
        .and_then(|r| r.get("confirm"))
        .and_then(|a| a.get("action"))
        .and_then(Value::as_str);
    let kept = match action {
        Some("accept") => host.state(&sealed.nonce).await.ok().flatten(),
        Some("decline") => {
            host.close(&sealed.nonce).await;
            Some(PageState {
                answer: Some(false),
                url: String::new(),
                fingerprint: sealed.fingerprint.clone(),
            })
        }
        Some(_) => {
            host.close(&sealed.nonce).await;
            return Paged::Dismissed;
        }
        None => host.state(&sealed.nonce).await.ok().flatten(),
    };
    let yes = match kept {
        None => return invalid(),
        // Not answered yet: the same page again (the nonce stays unspent).
        Some(PageState {
            answer: None, url, ..
        }) => return Paged::Decided(page_required(url, state.clone())),
        Some(PageState {
            answer: Some(yes), ..
        }) => yes,
    };
    host.close(&sealed.nonce).await;
    if !confirmations.states.spend_async(&sealed.nonce).await {
        return invalid();
    }
    Paged::Decided(match yes {
        true if sealed.fingerprint == fp => Decision::Apply,
        true => Decision::Refused(BUDGET_CHANGED.into()),
        false => Decision::Declined,
    })
}

/// The round trip's first call: a page kept under a new sealed state's nonce, and the request
/// that sends the person there.
async fn first_page(
    confirmations: &Confirmations,
    host: &PageHost,
    call: &str,
    fp: &str,
    question: &str,
) -> Paged {
    let invalid = || Paged::Decided(Decision::Refused(ANSWER_INVALID.into()));
    let Some(state) = confirmations.states.seal(call.as_bytes(), fp) else {
        return invalid();
    };
    let Some(sealed) = confirmations.states.open(call.as_bytes(), &state) else {
        return invalid();
    };
    match host.open(question, &sealed.nonce, fp).await {
        Ok(url) => Paged::Decided(page_required(url, state)),
        Err(error) => {
            tracing::warn!("{error}");
            Paged::Dismissed
        }
    }
}

/// The round trip's request: send the person to `url`.
fn page_required(url: String, state: String) -> Decision {
    let params = ElicitRequestParams::UrlElicitationParams {
        meta: None,
        message: PAGE_MESSAGE.to_string(),
        url,
        elicitation_id: String::new(),
    };
    let mut requests = InputRequests::new();
    requests.insert(
        "confirm".into(),
        InputRequest::Elicitation(ElicitRequest::new(params)),
    );
    Decision::InputRequired(InputRequiredResult::new(Some(requests), Some(state)))
}

/// What the client shows beside the page's link.
const PAGE_MESSAGE: &str =
    "Review this change to your YNAB plan on the page, and answer yes or no there.";

enum Answer {
    Yes,
    No,
    Dismissed,
}

/// `docs/contract/writes.md` §4.4.3: accept + `value: true` is yes; accept otherwise or decline is
/// no; cancel, or anything that is not an elicitation result, is a dismissal.
fn read_answer(value: &Value) -> Answer {
    match value.get("action").and_then(Value::as_str) {
        Some("accept") => {
            if value.get("content").and_then(|c| c.get("value")) == Some(&Value::Bool(true)) {
                Answer::Yes
            } else {
                Answer::No
            }
        }
        Some("decline") => Answer::No,
        _ => Answer::Dismissed,
    }
}

fn associated_data(tool: &str, arguments: &Map<String, Value>) -> String {
    format!(
        "{tool}\n{}",
        crate::digest::canon(&Value::Object(arguments.clone()))
    )
}

/// The yes/no form (D12): one required boolean, `value`.
pub fn form(question: &str) -> ElicitRequestParams {
    let schema = ElicitationSchema::builder()
        .required_bool_with("value", |b| {
            b.title("Apply this change")
                .description("Tick to apply, leave unticked to refuse")
        })
        .build_unchecked();
    ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: question.to_string(),
        requested_schema: schema,
    }
}

fn input_required(
    confirmations: &Confirmations,
    associated: &str,
    fp: &str,
    question: &str,
) -> Decision {
    let Some(state) = confirmations.states.seal(associated.as_bytes(), fp) else {
        return Decision::Refused(ANSWER_INVALID.into());
    };
    let mut requests = InputRequests::new();
    requests.insert(
        "confirm".into(),
        InputRequest::Elicitation(ElicitRequest::new(form(question))),
    );
    Decision::InputRequired(InputRequiredResult::new(Some(requests), Some(state)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn answers_are_read_as_the_table_says() {
        assert!(matches!(
            read_answer(&json!({"action": "accept", "content": {"value": true}})),
            Answer::Yes
        ));
        for no in [
            json!({"action": "accept", "content": {"value": false}}),
            json!({"action": "accept", "content": {}}),
            json!({"action": "accept", "content": {"value": "true"}}),
            json!({"action": "decline"}),
        ] {
            assert!(matches!(read_answer(&no), Answer::No), "{no}");
        }
        for dismissed in [json!({"action": "cancel"}), json!("yes"), json!({"x": 1})] {
            assert!(
                matches!(read_answer(&dismissed), Answer::Dismissed),
                "{dismissed}"
            );
        }
    }
}
