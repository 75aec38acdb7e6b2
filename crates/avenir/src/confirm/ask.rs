//! How to ask (`docs/contract/writes.md` §4.3–4.4): a confirmation code, the 2026-07-28
//! input-required round trip with a sealed state, or an in-call question on an older protocol; and
//! how the person's answer is read.

use super::{
    ANSWER_INVALID, AskContext, BAD_CODE, BUDGET_CHANGED, CODE_NOT_CHECKED, CODE_NOT_KEPT,
    Confirmations, Decision, cannot_ask, code_not_enough, codes,
};
use crate::confirmations::Risk;
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
    // A client that can send the person to a page: the local page, in either era.
    if ask.url_mode
        && let Some(pages) = &confirmations.pages
    {
        let timeout = confirmations.elicitation_timeout;
        return match (ask.modern, &ask.peer) {
            (true, _) => match modern_page(confirmations, pages, ask, &call, fp, question).await {
                Paged::Decided(decision) => decision,
                Paged::Dismissed => fallback.dismissed(fp).await,
            },
            (false, Some(peer)) => {
                let answer = by_page(pages, peer, question, timeout).await;
                fallback.answered(answer, fp).await
            }
            (false, None) => fallback.dismissed(fp).await,
        };
    }
    if !ask.can_ask {
        return match required {
            true => Decision::Refused(cannot_ask(confirmations.policy, risk).into()),
            false => fallback.code(fp).await,
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

/// Ask on the local page (`confirmations::pages`): the client is asked to send the person to it,
/// then the person's answer there is awaited. The client learns that the page is done
/// (`notifications/elicitation/complete`) whatever the outcome.
async fn by_page(
    pages: &std::sync::Arc<crate::confirmations::pages::Pages>,
    peer: &rmcp::Peer<rmcp::RoleServer>,
    question: &str,
    timeout: std::time::Duration,
) -> Answer {
    use rmcp::model::{CustomNotification, ElicitationAction, ServerNotification};
    let opened = match pages.open(question).await {
        Ok(opened) => opened,
        Err(error) => {
            tracing::warn!("{error}");
            return Answer::Dismissed;
        }
    };
    let params = ElicitRequestParams::UrlElicitationParams {
        meta: None,
        message: PAGE_MESSAGE.to_string(),
        url: opened.url.clone(),
        elicitation_id: opened.elicitation_id.clone(),
    };
    let asked = peer
        .create_elicitation_with_timeout(params, Some(timeout))
        .await;
    let answer = match asked.map(|result| result.action) {
        Ok(ElicitationAction::Accept) => match tokio::time::timeout(timeout, opened.answer).await {
            Ok(Ok(true)) => Answer::Yes,
            Ok(Ok(false)) => Answer::No,
            _ => Answer::Dismissed,
        },
        Ok(ElicitationAction::Decline) => Answer::No,
        Ok(_) => Answer::Dismissed,
        Err(error) => {
            tracing::info!("the page was not opened: {error}");
            Answer::Dismissed
        }
    };
    pages.close(&opened.token);
    let id = serde_json::json!({"elicitationId": opened.elicitation_id});
    let done = CustomNotification::new("notifications/elicitation/complete", Some(id));
    if let Err(error) = peer
        .send_notification(ServerNotification::CustomNotification(done))
        .await
    {
        tracing::info!("the client was not told the page is done: {error}");
    }
    answer
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
    pages: &std::sync::Arc<crate::confirmations::pages::Pages>,
    ask: &AskContext,
    call: &str,
    fp: &str,
    question: &str,
) -> Paged {
    let invalid = || Paged::Decided(Decision::Refused(ANSWER_INVALID.into()));
    let Some(state) = &ask.request_state else {
        let Some(state) = confirmations.states.seal(call.as_bytes(), fp) else {
            return invalid();
        };
        let Some(sealed) = confirmations.states.open(call.as_bytes(), &state) else {
            return invalid();
        };
        return match pages.open_recorded(question, &sealed.nonce).await {
            Ok(url) => Paged::Decided(page_required(url, state)),
            Err(error) => {
                tracing::warn!("{error}");
                Paged::Dismissed
            }
        };
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
    let answer = match action {
        Some("accept") => pages.take(&sealed.nonce),
        Some("decline") => {
            pages.forget(&sealed.nonce);
            Some(Some(false))
        }
        Some(_) => {
            pages.forget(&sealed.nonce);
            return Paged::Dismissed;
        }
        None => Some(None),
    };
    let yes = match answer {
        None => return invalid(),
        Some(None) => {
            // Not answered yet: the same page again (the nonce stays unspent).
            return match pages.url_of(&sealed.nonce) {
                Some(url) => Paged::Decided(page_required(url, state.clone())),
                None => invalid(),
            };
        }
        Some(Some(yes)) => yes,
    };
    if !confirmations.states.spend_async(&sealed.nonce).await {
        return invalid();
    }
    Paged::Decided(match yes {
        true if sealed.fingerprint == fp => Decision::Apply,
        true => Decision::Refused(BUDGET_CHANGED.into()),
        false => Decision::Declined,
    })
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
