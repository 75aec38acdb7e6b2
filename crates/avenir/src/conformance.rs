//! Fixtures for the official MCP conformance suite (`scripts/conformance/`): compiled into debug
//! builds only and served only when the server starts with `AVENIR_MCP_CONFORMANCE_FIXTURES=1`,
//! so the product's tools, resources and prompts stay exactly as they are (a release build has
//! none).
//!
//! The suite calls fixed names; a server without them fails those scenarios with "not found",
//! which says nothing about its protocol handling. The fixtures are of two kinds:
//!
//! - **Plain fixtures** with the shapes the suite describes (`test_simple_text`,
//!   `test_error_handling`, `test_input_required_result_elicitation`, `json_schema_2020_12_tool`,
//!   `test://static-text`, `test://template/{id}/data`, `test_simple_prompt`,
//!   `test_prompt_with_arguments`). They go through the server's own dispatch (structured results,
//!   `isError`, `_meta`, the schema path of `tools/list`, the resource and prompt routing), so the
//!   suite measures that plumbing, the transport and the era handling.
//! - **Confirmation fixtures** (`test_elicitation`, `test_streaming_elicitation`,
//!   `test_input_required_result_request_state`, `…_tampered_state`, `…_capabilities`): a write
//!   that changes nothing, run through `confirm::run` exactly as every write tool is. How to ask
//!   is decided per request as for a real write: the 2026-07-28 round trip with the sealed,
//!   single-use `requestState`, the in-call question on older protocols, the confirmation code
//!   when the client cannot ask. Its write sends nothing to YNAB: were a client to answer yes,
//!   the call would end in an `isError` result and the journal would hold an intent settled as
//!   failed, nothing more.

use crate::args::Text;
use crate::confirm::{
    AskContext, ConfirmedWrite, Finished, Prepared, Proposal, WriteFailure, WriteResult,
    WriteStatus, Written,
};
use crate::context::Context;
use crate::plan_store::PlanSnapshot;
use crate::tools::toolsets::Toolset;
use crate::tools::{ConfirmedTool, Running, ToolError, ToolSpec, confirmed_tool};
use rmcp::ErrorData as McpError;
use rmcp::model::{
    ElicitRequest, ElicitRequestParams, ElicitationSchema, GetPromptResult, InputRequest,
    InputRequests, InputRequiredResult, JsonObject, Prompt, PromptArgument, PromptMessage,
    ReadResourceResult, Resource, ResourceContents, ResourceTemplate, Role,
};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value, json};
use std::marker::PhantomData;
use std::sync::{Arc, LazyLock};

/// The fixture tools, listed after the product's own.
pub static TOOLS: LazyLock<Vec<ToolSpec>> = LazyLock::new(|| {
    vec![
        plain(
            "test_simple_text",
            "A text answer",
            object_with_text,
            run_simple_text,
        ),
        plain(
            "test_error_handling",
            "A tool that always fails",
            || json!({"type": "object"}),
            run_error,
        ),
        plain(
            "test_input_required_result_elicitation",
            "Asks the client for a name (2026-07-28 input-required round trip)",
            || json!({"type": "object", "properties": {"greeting": {"type": "string"}}, "required": ["greeting"]}),
            run_ask_name,
        ),
        ToolSpec {
            input_schema: json_schema_2020_12,
            ..plain(
                "json_schema_2020_12_tool",
                "Tool with JSON Schema 2020-12 features",
                || json!({"type": "object"}),
                run_json_schema,
            )
        },
        confirmed_tool::<Confirm<Elicitation>>(FIXTURES),
        confirmed_tool::<Confirm<StreamingElicitation>>(FIXTURES),
        confirmed_tool::<Confirm<RequestState>>(FIXTURES),
        confirmed_tool::<Confirm<TamperedState>>(FIXTURES),
        confirmed_tool::<Confirm<Capabilities>>(FIXTURES),
    ]
});

/// The toolset the fixtures name: they are listed apart from every toolset, whatever the
/// process lists (`AvenirServer::listed`), so nothing reads it.
const FIXTURES: Toolset = Toolset::Plans;

/// A fixture tool with no arguments (any are ignored), read-only.
fn plain(
    name: &'static str,
    title: &'static str,
    output_schema: fn() -> Value,
    run: crate::tools::Run,
) -> ToolSpec {
    ToolSpec {
        name,
        title,
        description: |_| {
            "A fixture of the MCP conformance suite (served to the conformance suite only).".into()
        },
        input_schema: || json!({"type": "object", "properties": {}}),
        output_schema,
        read_only: true,
        idempotent: true,
        destructive: None,
        fields: &[],
        toolset: FIXTURES,
        run,
    }
}

fn object_with_text() -> Value {
    json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]})
}

fn run_simple_text(_: &Context, _: Map<String, Value>, _: AskContext) -> Running<'_> {
    Box::pin(async {
        Finished::Result {
            value: json!({"text": "This is a simple text response for testing."}),
            plan_id: None,
        }
    })
}

fn run_error(_: &Context, _: Map<String, Value>, _: AskContext) -> Running<'_> {
    Box::pin(async {
        Finished::Error("This tool intentionally returns an error for testing".into())
    })
}

/// `user_name` answered with an accepted `{name}` completes; anything else (no answer, another
/// key, a malformed answer) asks again. 2026-07-28 only: older protocols have no such round trip.
fn run_ask_name(_: &Context, _: Map<String, Value>, ask: AskContext) -> Running<'_> {
    Box::pin(async move {
        if !ask.modern {
            return Finished::Error(
                "This fixture asks through the 2026-07-28 input-required round trip.".into(),
            );
        }
        let name = ask
            .input_responses
            .as_ref()
            .and_then(|responses| responses.get("user_name"))
            .filter(|answer| answer.get("action").and_then(Value::as_str) == Some("accept"))
            .and_then(|answer| answer.get("content")?.get("name")?.as_str());
        match name {
            Some(name) => Finished::Result {
                value: json!({"greeting": format!("Hello, {}!", crate::text::safe(name))}),
                plan_id: None,
            },
            None => {
                let schema = ElicitationSchema::builder()
                    .required_string("name")
                    .build_unchecked();
                let question = ElicitRequestParams::FormElicitationParams {
                    meta: None,
                    message: "What is your name?".into(),
                    requested_schema: schema,
                };
                let mut requests = InputRequests::new();
                requests.insert(
                    "user_name".into(),
                    InputRequest::Elicitation(ElicitRequest::new(question)),
                );
                Finished::InputRequired(InputRequiredResult::new(Some(requests), None))
            }
        }
    })
}

/// The suite's schema, as its `json-schema-2020-12` scenario expects it back from `tools/list`.
fn json_schema_2020_12() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
            "address": {
                "$anchor": "addressDef",
                "type": "object",
                "properties": {"street": {"type": "string"}, "city": {"type": "string"}}
            }
        },
        "properties": {
            "name": {"type": "string"},
            "address": {"$ref": "#/$defs/address"},
            "contactMethod": {"type": "string", "enum": ["phone", "email"]},
            "phone": {"type": "string"},
            "email": {"type": "string"}
        },
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": false
    })
}

fn run_json_schema(_: &Context, _: Map<String, Value>, _: AskContext) -> Running<'_> {
    Box::pin(async {
        Finished::Result {
            value: json!({}),
            plan_id: None,
        }
    })
}

// ---- confirmation fixtures ---------------------------------------------------------------------

/// A confirmation fixture's tool name.
pub trait FixtureName: Send + Sync + 'static {
    const NAME: &'static str;
}

macro_rules! fixture_names {
    ($($kind:ident = $name:literal),* $(,)?) => {
        $(
            #[derive(Debug, Clone, Copy)]
            pub struct $kind;
            impl FixtureName for $kind {
                const NAME: &'static str = $name;
            }
        )*
    };
}

fixture_names! {
    Elicitation = "test_elicitation",
    StreamingElicitation = "test_streaming_elicitation",
    RequestState = "test_input_required_result_request_state",
    TamperedState = "test_input_required_result_tampered_state",
    Capabilities = "test_input_required_result_capabilities",
}

/// A write that changes nothing, asked about as every write is.
#[derive(Debug)]
pub struct Confirm<N> {
    question: String,
    name: PhantomData<N>,
}

crate::tool_args! {
    /// The arguments of a confirmation fixture.
    pub struct ConfirmArgs {
        /// The question to ask (the suite's `message`).
        pub message: Option<Text<1, 500>>,
    }
}

// The fixture's own field of its answer.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ConfirmDetails {
    /// The fixture's name.
    pub fixture: String,
}

impl<N: FixtureName> ConfirmedTool for Confirm<N> {
    const TITLE: &'static str = "A confirmed write that changes nothing";
    const IDEMPOTENT: bool = true;
    const DESTRUCTIVE: bool = false;
    type Args = ConfirmArgs;
    type Details = ConfirmDetails;

    fn description(_writes: bool) -> String {
        "A fixture of the MCP conformance suite (served to the conformance suite only): asks the user to confirm \
a change that changes nothing, through the confirmation path of every write."
            .into()
    }

    fn from_args(args: ConfirmArgs, _today: chrono::NaiveDate) -> Result<Self, ToolError> {
        let question = args.message.map_or_else(
            || "Apply this conformance fixture's change (it changes nothing)?".into(),
            |m| crate::text::safe(&m.0),
        );
        Ok(Confirm {
            question,
            name: PhantomData,
        })
    }
}

impl<N: FixtureName> ConfirmedWrite for Confirm<N> {
    type Change = ();
    const TOOL: &'static str = N::NAME;
    const KIND: crate::logic::undo::Kind = crate::logic::undo::Kind::ConformanceFixture;

    fn plan_id(&self) -> &str {
        "last-used"
    }

    async fn prepare(
        &self,
        _context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<()>, ToolError> {
        Ok(Prepared::change(
            snapshot.id(),
            json!({"fixture": N::NAME, "question": self.question}),
            self.question.clone(),
            (),
        ))
    }

    fn intent_details(&self, _change: &()) -> Value {
        json!({"fixture": N::NAME})
    }

    async fn write(
        &self,
        _context: &Context,
        _proposal: &Proposal<()>,
    ) -> Result<Written<()>, WriteFailure> {
        Err(WriteFailure::NothingChanged(
            "A conformance fixture has nothing to write: nothing was sent to YNAB.".into(),
        ))
    }

    fn result(
        &self,
        _change: &(),
        status: WriteStatus,
        message: String,
        confirmation: Option<String>,
        operation_id: Option<String>,
    ) -> Value {
        WriteResult {
            status,
            message,
            confirmation,
            operation_id,
            details: ConfirmDetails {
                fixture: N::NAME.into(),
            },
        }
        .into_value()
    }
}

// ---- resources and prompts ---------------------------------------------------------------------

const STATIC_TEXT: &str = "test://static-text";

pub fn resources() -> Vec<Resource> {
    vec![
        Resource::new(STATIC_TEXT, "static-text")
            .with_mime_type("text/plain")
            .with_description("A fixture of the MCP conformance suite."),
    ]
}

pub fn templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new("test://template/{id}/data", "template-data")
            .with_mime_type("application/json")
            .with_description("A fixture of the MCP conformance suite."),
    ]
}

/// The fixture resource `uri` names, if it names one.
pub fn read_resource(uri: &str) -> Option<ReadResourceResult> {
    let (text, mime) = if uri == STATIC_TEXT {
        (
            "This is the content of the static text resource.".to_string(),
            "text/plain",
        )
    } else {
        let id = uri
            .strip_prefix("test://template/")?
            .strip_suffix("/data")
            .filter(|id| !id.is_empty() && !id.contains('/'))?;
        let text = json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")})
            .to_string();
        (text, "application/json")
    };
    Some(ReadResourceResult::new(vec![
        ResourceContents::text(text, uri).with_mime_type(mime),
    ]))
}

pub fn prompts() -> Vec<Prompt> {
    let argument = |name: &str, description: &str| {
        PromptArgument::new(name)
            .with_description(description)
            .with_required(true)
    };
    vec![
        Prompt::new(
            "test_simple_prompt",
            Some("A fixture of the MCP conformance suite: a prompt without arguments."),
            None,
        ),
        Prompt::new(
            "test_prompt_with_arguments",
            Some("A fixture of the MCP conformance suite: a prompt with two arguments."),
            Some(vec![
                argument("arg1", "First test argument"),
                argument("arg2", "Second test argument"),
            ]),
        ),
    ]
}

/// The fixture prompt `name` names, if it names one.
pub fn get_prompt(
    name: &str,
    arguments: Option<&JsonObject>,
) -> Option<Result<GetPromptResult, McpError>> {
    let text = match name {
        "test_simple_prompt" => Ok("This is a simple prompt for testing.".to_string()),
        "test_prompt_with_arguments" => {
            let arg = |key: &str| {
                arguments
                    .and_then(|a| a.get(key))
                    .and_then(Value::as_str)
                    .map(crate::text::safe)
                    .ok_or_else(|| {
                        McpError::invalid_params(format!("{key} is required: give a string."), None)
                    })
            };
            arg("arg1").and_then(|arg1| {
                arg("arg2")
                    .map(|arg2| format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"))
            })
        }
        _ => return None,
    };
    Some(text.map(|text| GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixtures_never_shadow_a_product_tool() {
        let product: Vec<&str> = crate::tools::registry().iter().map(|t| t.name).collect();
        for fixture in TOOLS.iter() {
            assert!(!product.contains(&fixture.name), "{}", fixture.name);
        }
        for uri in [
            "avenir-mcp://guide",
            "ynab://plans",
            "ynab://plans/x/accounts",
        ] {
            assert!(read_resource(uri).is_none(), "{uri}");
        }
        for prompt in crate::server::prompts::list() {
            assert!(get_prompt(&prompt.name, None).is_none(), "{}", prompt.name);
        }
    }

    #[test]
    fn the_template_substitutes_its_id() {
        let read = read_resource("test://template/123/data").expect("a fixture");
        let text = serde_json::to_string(&read).unwrap_or_default();
        assert!(text.contains("Data for ID: 123"), "{text}");
        assert!(read_resource("test://template//data").is_none());
        assert!(read_resource("test://template/1/2/data").is_none());
    }
}
