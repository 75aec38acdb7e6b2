//! Logs on stderr in the reference's two formats (`docs/contract/server.md` §9.1): text lines
//! `{LEVEL}:{logger}:{message}`, or one JSON object per line with `AVENIR_MCP_LOG_FORMAT=json`.

use std::fmt;
use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::registry::LookupSpan;

/// The two line formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

/// Set up logging from `AVENIR_MCP_LOG_LEVEL` and `AVENIR_MCP_LOG_FORMAT`; a level the
/// reference does not know is refused with a sentence naming the variable. The hosted mode's
/// logs leave out what its libraries' lines can hold (`avenir_hosted::logs`).
pub fn init(hosted: bool) -> Result<(), String> {
    let level = std::env::var("AVENIR_MCP_LOG_LEVEL").unwrap_or_default();
    use tracing_subscriber::filter::{LevelFilter, Targets};
    let filter = match level.to_ascii_uppercase().as_str() {
        "" | "WARNING" | "WARN" => Targets::new().with_default(LevelFilter::WARN),
        // DEBUG adds the MCP library's own messages (they can hold requests and answers)
        "DEBUG" => Targets::new().with_default(LevelFilter::DEBUG),
        "INFO" => Targets::new()
            .with_default(LevelFilter::INFO)
            .with_target("rmcp", LevelFilter::WARN),
        "ERROR" | "CRITICAL" => Targets::new().with_default(LevelFilter::ERROR),
        _ => {
            return Err(format!(
                "AVENIR_MCP_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, got {level:?}."
            ));
        }
    };
    let filter = if hosted { quieter(filter) } else { filter };
    // `json` exactly selects JSON; anything else is text, as in the reference.
    let format = if std::env::var("AVENIR_MCP_LOG_FORMAT").as_deref() == Ok("json") {
        Format::Json
    } else {
        Format::Text
    };
    use tracing_subscriber::Layer;
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let lines = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .event_format(Lines(format));
    tracing_subscriber::registry()
        .with(lines.with_filter(filter))
        .init();
    Ok(())
}

/// The hosted mode's quieter libraries, over `filter`.
#[cfg(feature = "hosted")]
fn quieter(filter: tracing_subscriber::filter::Targets) -> tracing_subscriber::filter::Targets {
    avenir_hosted::logs::QUIETER
        .iter()
        .fold(filter, |filter, (target, most)| {
            filter.with_target(*target, *most)
        })
}

/// A build without the hosted mode never serves it.
#[cfg(not(feature = "hosted"))]
fn quieter(filter: tracing_subscriber::filter::Targets) -> tracing_subscriber::filter::Targets {
    filter
}

/// The reference's level names.
fn level_name(level: &Level) -> &'static str {
    match *level {
        Level::ERROR => "ERROR",
        Level::WARN => "WARNING",
        Level::INFO => "INFO",
        _ => "DEBUG",
    }
}

/// The event's message, with any other fields after it as `key=value`.
#[derive(Default)]
struct Message(String);

impl Visit for Message {
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        if field.name() == "message" {
            let text = format!("{value:?}");
            self.0.insert_str(0, &text);
        } else {
            self.0.push_str(&format!(" {}={value:?}", field.name()));
        }
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.0.insert_str(0, value);
        } else {
            self.0.push_str(&format!(" {}={value}", field.name()));
        }
    }
}

struct Lines(Format);

impl<S, N> FormatEvent<S, N> for Lines
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        _context: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        let mut message = Message::default();
        event.record(&mut message);
        let metadata = event.metadata();
        let level = level_name(metadata.level());
        let logger = metadata.target();
        match self.0 {
            Format::Text => writeln!(writer, "{level}:{logger}:{}", message.0),
            Format::Json => {
                let time = chrono::Utc::now()
                    .format("%Y-%m-%dT%H:%M:%S%.3f+00:00")
                    .to_string();
                let line = serde_json::json!({
                    "time": time, "level": level, "logger": logger, "message": message.0
                });
                writeln!(writer, "{line}")
            }
        }
    }
}
