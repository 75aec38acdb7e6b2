//! Charts through the protocol, on the demo plan: `chart: true` on `forecast_balance`,
//! `get_net_worth_trend`, `get_spending_trends` and `get_age_of_money` adds one PNG image after
//! the usual content, the answer itself unchanged; a chart with nothing to draw is a note instead.
//! The PNG is decoded: its size, that it is not blank, and the colours of its marks.
//!
//! `cargo test -p avenir --test suite chart_tools:: -- --ignored` writes the README's pictures
//! (`docs/*.png`) from the demo plan, "today" 2026-09-25.

use crate::common;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use common::{Era, start};
use rmcp::model::CallToolResult;
use serde_json::{Value, json};
use std::collections::HashSet;

/// A decoded PNG: width, height and RGB pixels.
struct Picture {
    width: u32,
    height: u32,
    pixels: Vec<[u8; 3]>,
}

impl Picture {
    fn colours(&self) -> usize {
        self.pixels.iter().collect::<HashSet<_>>().len()
    }

    /// The share of pixels that are not the white background, in percent.
    fn inked_percent(&self) -> usize {
        let inked = self
            .pixels
            .iter()
            .filter(|p| **p != [255, 255, 255])
            .count();
        inked * 100 / self.pixels.len().max(1)
    }

    /// Pixels close to `rgb` (anti-aliasing blends edges).
    fn count_near(&self, rgb: [u8; 3]) -> usize {
        self.pixels
            .iter()
            .filter(|p| p.iter().zip(rgb).all(|(a, b)| a.abs_diff(b) <= 12))
            .count()
    }
}

fn decode(bytes: &[u8]) -> Picture {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("a PNG header");
    let mut buffer = vec![0; reader.output_buffer_size().expect("a buffer size")];
    let info = reader.next_frame(&mut buffer).expect("a PNG frame");
    assert_eq!(info.color_type, png::ColorType::Rgb);
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    let pixels = buffer[..info.buffer_size()]
        .chunks_exact(3)
        .map(|c| [c[0], c[1], c[2]])
        .collect();
    Picture {
        width: info.width,
        height: info.height,
        pixels,
    }
}

/// The PNG bytes of the result's last block, checked to be the only image, after the rest.
fn image_of(result: &CallToolResult) -> Vec<u8> {
    let images: Vec<_> = result.content.iter().filter_map(|c| c.as_image()).collect();
    assert_eq!(images.len(), 1, "one image: {:?}", result.content.len());
    let last = result
        .content
        .last()
        .and_then(|c| c.as_image())
        .expect("the image comes last");
    assert_eq!(last.mime_type, "image/png");
    STANDARD.decode(&last.data).expect("standard base64")
}

/// A readable chart of the canvas size: many colours (text is anti-aliased), a fair share inked
/// but mostly white background.
fn assert_drawn(picture: &Picture, tool: &str) {
    assert_eq!((picture.width, picture.height), (900, 500), "{tool}");
    assert!(
        picture.colours() >= 20,
        "{tool}: {} colours",
        picture.colours()
    );
    let inked = picture.inked_percent();
    assert!((3..=60).contains(&inked), "{tool}: {inked}% inked");
    // the title's dark ink
    assert!(picture.count_near([33, 37, 41]) > 200, "{tool}: no title");
}

/// Calls `tool` without and with `chart: true`: the second result is the first plus one image.
async fn charted(tool: &'static str, arguments: Value) -> (Value, Picture) {
    let h = start(Era::Modern, false).await;
    let plain = h.call(tool, arguments.clone()).await;
    assert_ne!(plain.is_error, Some(true), "{tool}: {:?}", plain.content);
    let mut with = arguments;
    with["chart"] = json!(true);
    let charted = h.call(tool, with).await;
    assert_ne!(
        charted.is_error,
        Some(true),
        "{tool}: {:?}",
        charted.content
    );
    assert_eq!(
        charted.structured_content, plain.structured_content,
        "{tool}: the answer is the same"
    );
    assert_eq!(charted.content.len(), plain.content.len() + 1, "{tool}");
    assert_eq!(
        charted.content[..plain.content.len()],
        plain.content[..],
        "{tool}: the text is the same"
    );
    // no chart without the argument, nor with false
    assert!(plain.content.iter().all(|c| c.as_image().is_none()));
    let picture = decode(&image_of(&charted));
    assert_drawn(&picture, tool);
    let answer = plain.structured_content.unwrap_or_default();
    (answer, picture)
}

/// The colours `crate::charts` draws with.
const ALERT: [u8; 3] = [196, 40, 40];
const BLUE_LINE: [u8; 3] = [31, 100, 170];
const ASSETS: [u8; 3] = [46, 139, 87];
const DEBTS: [u8; 3] = [200, 70, 60];
const GOAL: [u8; 3] = [46, 120, 80];

#[tokio::test]
async fn a_forecast_chart_marks_the_shortfall_only_when_there_is_one() {
    let (answer, picture) = charted(
        "forecast_balance",
        json!({"plan_id": "last-used", "until": "2026-12"}),
    )
    .await;
    assert!(answer["first_shortfall"].is_null(), "{answer}");
    assert!(picture.count_near(BLUE_LINE) > 500, "the balance line");
    assert_eq!(picture.count_near(ALERT), 0, "no shortfall, no red");

    let (answer, picture) = charted(
        "forecast_balance",
        json!({
            "plan_id": "last-used",
            "until": "2026-12",
            "one_offs": [{"date": "2026-11-10", "amount": -90000, "label": "tax bill"}]
        }),
    )
    .await;
    assert_eq!(answer["first_shortfall"], "2026-11-01");
    assert!(
        picture.count_near(ALERT) > 300,
        "the shortfall's line, dot and label: {}",
        picture.count_near(ALERT)
    );
}

#[tokio::test]
async fn a_net_worth_chart_draws_net_worth_assets_and_debts() {
    let (answer, picture) = charted(
        "get_net_worth_trend",
        json!({"plan_id": "last-used", "months_count": 12}),
    )
    .await;
    assert_eq!(answer["months"].as_array().map(Vec::len), Some(12));
    for (name, colour) in [
        ("net worth", BLUE_LINE),
        ("assets", ASSETS),
        ("debts", DEBTS),
    ] {
        assert!(picture.count_near(colour) > 200, "{name}");
    }
}

#[tokio::test]
async fn a_spending_chart_and_an_age_of_money_chart_are_drawn() {
    let (answer, picture) = charted(
        "get_spending_trends",
        json!({"plan_id": "last-used", "months_count": 6}),
    )
    .await;
    assert!(
        answer["categories"]
            .as_object()
            .is_some_and(|a| a.len() > 5),
        "{answer}"
    );
    // the first category's colour and the others' grey
    assert!(picture.count_near([78, 121, 167]) > 100);
    assert!(picture.count_near([140, 140, 140]) > 100);

    let (answer, picture) = charted(
        "get_age_of_money",
        json!({"plan_id": "last-used", "months_count": 12}),
    )
    .await;
    assert!(answer["days"].is_i64(), "{answer}");
    assert!(picture.count_near(BLUE_LINE) > 200);
    // the dashed 30-day line and its label
    assert!(picture.count_near(GOAL) > 50);
}

#[tokio::test]
async fn a_chart_with_nothing_to_draw_is_a_note_and_a_bad_flag_an_error() {
    let h = start(Era::Legacy, false).await;
    let plain = h
        .call(
            "get_net_worth_trend",
            json!({"plan_id": "last-used", "months_count": 1}),
        )
        .await;
    let result = h
        .call(
            "get_net_worth_trend",
            json!({"plan_id": "last-used", "months_count": 1, "chart": true}),
        )
        .await;
    assert_ne!(result.is_error, Some(true));
    assert_eq!(result.structured_content, plain.structured_content);
    assert!(result.content.iter().all(|c| c.as_image().is_none()));
    assert_eq!(result.content.len(), plain.content.len() + 1);
    let note = result
        .content
        .last()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone());
    assert_eq!(
        note.as_deref(),
        Some("No chart: one month is no trend. Ask months_count 2 or more to chart net worth.")
    );

    // today is 2026-09-25: "current" leaves five days, a chart; every tool says what chart takes
    let message = h
        .error(
            "forecast_balance",
            json!({"plan_id": "last-used", "until": "current", "chart": "yes"}),
        )
        .await;
    assert_eq!(
        message,
        "Argument chart: must be true or false, got a string."
    );
    let plain = h
        .call(
            "get_age_of_money",
            json!({"plan_id": "last-used", "chart": false}),
        )
        .await;
    assert!(plain.content.iter().all(|c| c.as_image().is_none()));
}

/// Writes `docs/forecast.png`, `docs/net-worth.png`, `docs/spending-trends.png` and
/// `docs/age-of-money.png` from the demo plan (today 2026-09-25), for the README.
#[tokio::test]
#[ignore = "writes the README's pictures: cargo test -p avenir --test suite chart_tools:: -- --ignored"]
async fn write_the_readme_charts() {
    let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs");
    let h = start(Era::Modern, false).await;
    for (file, tool, arguments) in [
        (
            "forecast.png",
            "forecast_balance",
            json!({"until": "2027-03", "one_offs": [{"date": "2026-11-10", "amount": -9000, "label": "new car"}], "chart": true}),
        ),
        (
            "net-worth.png",
            "get_net_worth_trend",
            json!({"months_count": 12, "chart": true}),
        ),
        (
            "spending-trends.png",
            "get_spending_trends",
            json!({"months_count": 6, "chart": true}),
        ),
        (
            "age-of-money.png",
            "get_age_of_money",
            json!({"months_count": 12, "chart": true}),
        ),
    ] {
        let result = h.call(tool, arguments).await;
        let bytes = image_of(&result);
        assert_drawn(&decode(&bytes), tool);
        std::fs::write(docs.join(file), bytes).expect("docs/ is writable");
    }
}
