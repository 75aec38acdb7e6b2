//! Draws a chart `logic::chart` described into PNG bytes: plotters' bitmap backend draws the
//! shapes on a white 900×500 canvas, then the text is laid over them with ab_glyph in DejaVu Sans
//! embedded in the binary (`assets/fonts/`; no system font is read), and `png` encodes it. Pixel
//! positions are computed here, as floats, from the integer positions and values of the
//! description; every label arrives already written.
//!
//! Text is drawn here rather than by plotters' own `ab_glyph` feature, whose 0.3.7 layout drops
//! each glyph's side bearing (letters and punctuation land askew).

use crate::logic::chart::{Axis, Chart, Mark, NothingToDraw, Series, Style};
use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};
use plotters::element::DashedPathElement;
use plotters::prelude::*;

/// The canvas, in pixels.
pub const WIDTH: u32 = 900;
pub const HEIGHT: u32 = 500;

/// DejaVu Sans 2.37 (see `assets/fonts/README.md`).
static FONT: &[u8] = include_bytes!("../assets/fonts/DejaVuSans.ttf");

/// What a chart argument adds to a tool's result after its usual content: the PNG, or the
/// sentence saying why there is none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attachment {
    Png(Vec<u8>),
    Note(String),
}

/// The attachment of a chart description: drawn, or the reason it was not.
pub fn attachment(chart: Result<Chart, NothingToDraw>) -> Attachment {
    match chart {
        Ok(chart) => match png(&chart) {
            Ok(bytes) => Attachment::Png(bytes),
            Err(error) => Attachment::Note(format!(
                "The chart could not be drawn ({error}); the answer above is complete without it."
            )),
        },
        Err(nothing) => Attachment::Note(nothing.0),
    }
}

/// The chart as a PNG of [`WIDTH`] × [`HEIGHT`] pixels.
pub fn png(chart: &Chart) -> Result<Vec<u8>, String> {
    let font = FontRef::try_from_slice(FONT).map_err(|_| "the embedded font cannot be read")?;
    let mut rgb = vec![255u8; (WIDTH as usize) * (HEIGHT as usize) * 3];
    let mut labels = Labels {
        font: &font,
        placed: Vec::new(),
    };
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (WIDTH, HEIGHT)).into_drawing_area();
        draw(&root, chart, &mut labels).map_err(|e| format!("drawing failed: {e}"))?;
        root.present().map_err(|e| format!("drawing failed: {e}"))?;
    }
    for label in &labels.placed {
        paint(&mut rgb, &font, label);
    }
    encode(&rgb)
}

fn encode(rgb: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, WIDTH, HEIGHT);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Balanced);
    let mut writer = encoder
        .write_header()
        .map_err(|e| format!("PNG encoding failed: {e}"))?;
    writer
        .write_image_data(rgb)
        .map_err(|e| format!("PNG encoding failed: {e}"))?;
    writer
        .finish()
        .map_err(|e| format!("PNG encoding failed: {e}"))?;
    Ok(out)
}

type Area<'a> = DrawingArea<BitMapBackend<'a>, plotters::coord::Shift>;
type Drawn<'a> = Result<(), DrawingAreaErrorKind<<BitMapBackend<'a> as DrawingBackend>::ErrorType>>;

const INK: RGBColor = RGBColor(33, 37, 41);
const MUTED: RGBColor = RGBColor(96, 102, 110);
const GRID: RGBColor = RGBColor(226, 229, 233);
const AXIS: RGBColor = RGBColor(150, 155, 160);
const ZERO: RGBColor = RGBColor(70, 74, 80);
const ALERT: RGBColor = RGBColor(196, 40, 40);
const BLUE_LINE: RGBColor = RGBColor(31, 100, 170);
/// The Age of Money goal's dashed line and label.
const GOAL: RGBColor = RGBColor(46, 120, 80);
/// Categories' colours, distinct on white (Tableau 10's first six).
const PALETTE: [RGBColor; 6] = [
    RGBColor(78, 121, 167),
    RGBColor(242, 142, 43),
    RGBColor(225, 87, 89),
    RGBColor(118, 183, 178),
    RGBColor(89, 161, 79),
    RGBColor(176, 122, 161),
];

fn colour(style: Style) -> RGBColor {
    match style {
        Style::Balance | Style::NetWorth | Style::Age => BLUE_LINE,
        Style::BelowZero => ALERT,
        Style::Assets => RGBColor(46, 139, 87),
        Style::Debts => RGBColor(200, 70, 60),
        Style::Category(n) => PALETTE[n % PALETTE.len()],
        Style::Others => RGBColor(140, 140, 140),
    }
}

/// A fill under the line down to zero, when the style has one.
fn fill(style: Style) -> Option<RGBColor> {
    match style {
        Style::Balance => Some(RGBColor(220, 232, 245)),
        Style::BelowZero => Some(RGBColor(247, 205, 205)),
        _ => None,
    }
}

fn width(style: Style) -> u32 {
    match style {
        Style::NetWorth | Style::Balance | Style::Age => 3,
        Style::BelowZero => 0,
        _ => 2,
    }
}

/// Month charts show a dot on each figure; the day-by-day balance does not.
fn dots(style: Style) -> bool {
    !matches!(style, Style::Balance | Style::BelowZero)
}

/// Where a label's point is, horizontally.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Across {
    Left,
    Centre,
    Right,
}

/// Where a label's point is, vertically.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Down {
    Top,
    Middle,
    Bottom,
}

/// A label to lay over the shapes.
struct Label {
    text: String,
    x: i32,
    y: i32,
    size: f32,
    colour: RGBColor,
    across: Across,
    down: Down,
}

/// The labels of a chart, placed as the shapes are drawn and painted after them.
struct Labels<'f> {
    font: &'f FontRef<'f>,
    placed: Vec<Label>,
}

/// The width of `text` at `size` pixels.
fn text_width(font: &FontRef<'_>, text: &str, size: f32) -> f32 {
    let scaled = font.as_scaled(PxScale::from(size));
    let mut caret = 0.0f32;
    let mut previous = None;
    for c in text.chars() {
        let id = scaled.glyph_id(c);
        if let Some(p) = previous {
            caret += scaled.kern(p, id);
        }
        caret += scaled.h_advance(id);
        previous = Some(id);
    }
    caret
}

impl Labels<'_> {
    /// The width of `text` at `size` pixels, rounded up.
    fn width(&self, text: &str, size: f32) -> i32 {
        text_width(self.font, text, size).ceil() as i32
    }

    fn put(
        &mut self,
        text: &str,
        (x, y): (i32, i32),
        size: f32,
        colour: RGBColor,
        (across, down): (Across, Down),
    ) {
        self.placed.push(Label {
            text: text.to_string(),
            x,
            y,
            size,
            colour,
            across,
            down,
        });
    }
}

/// Paints a label into the RGB buffer, each glyph's coverage blended over what is there.
fn paint(rgb: &mut [u8], font: &FontRef<'_>, label: &Label) {
    let scale = PxScale::from(label.size);
    let scaled = font.as_scaled(scale);
    let width = text_width(font, &label.text, label.size);
    let left = match label.across {
        Across::Left => label.x as f32,
        Across::Centre => label.x as f32 - width / 2.0,
        Across::Right => label.x as f32 - width,
    };
    let (ascent, descent) = (scaled.ascent(), scaled.descent());
    let baseline = match label.down {
        Down::Top => label.y as f32 + ascent,
        Down::Middle => label.y as f32 + (ascent + descent) / 2.0,
        Down::Bottom => label.y as f32 + descent,
    };
    let [r, g, b] = [label.colour.0, label.colour.1, label.colour.2].map(f32::from);
    let mut caret = 0.0f32;
    let mut previous = None;
    for c in label.text.chars() {
        let id = scaled.glyph_id(c);
        if let Some(p) = previous {
            caret += scaled.kern(p, id);
        }
        let glyph = id.with_scale_and_position(scale, point(left + caret, baseline));
        caret += scaled.h_advance(id);
        previous = Some(id);
        let Some(outlined) = font.outline_glyph(glyph) else {
            continue;
        };
        let bounds = outlined.px_bounds();
        outlined.draw(|gx, gy, coverage| {
            let x = bounds.min.x as i32 + gx as i32;
            let y = bounds.min.y as i32 + gy as i32;
            if x < 0 || y < 0 || x >= WIDTH as i32 || y >= HEIGHT as i32 {
                return;
            }
            let at = ((y as usize) * (WIDTH as usize) + (x as usize)) * 3;
            let coverage = coverage.clamp(0.0, 1.0);
            if let Some(pixel) = rgb.get_mut(at..at + 3) {
                for (channel, ink) in pixel.iter_mut().zip([r, g, b]) {
                    let under = f32::from(*channel);
                    *channel = (under + (ink - under) * coverage).round() as u8;
                }
            }
        });
    }
}

/// The plot's rectangle and the mapping of positions and values into it.
struct Frame {
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
    x: (i64, i64),
    y: (i64, i64),
}

impl Frame {
    fn px(&self, x: i64) -> i32 {
        let (lo, hi) = self.x;
        let span = (hi - lo).max(1) as f64;
        (self.left + (x - lo) as f64 / span * (self.right - self.left)).round() as i32
    }

    fn py(&self, y: i64) -> i32 {
        let (lo, hi) = self.y;
        let span = (hi - lo).max(1) as f64;
        (self.bottom - (y - lo) as f64 / span * (self.bottom - self.top)).round() as i32
    }

    fn point(&self, x: i64, y: i64) -> (i32, i32) {
        (self.px(x), self.py(y))
    }
}

/// Legend entries laid out in rows under the x labels: (name, style, x, row) of each.
fn legend_layout(
    labels: &Labels<'_>,
    series: &[Series],
    left: i32,
) -> Vec<(String, Style, i32, i32)> {
    let mut entries = Vec::new();
    let (mut x, mut row) = (left, 0);
    for s in series {
        let Some(name) = &s.legend else { continue };
        let needed = 28 + labels.width(name, 13.0) + 22;
        if x + needed > WIDTH as i32 - 20 && x > left {
            x = left;
            row += 1;
        }
        entries.push((name.clone(), s.style, x, row));
        x += needed;
    }
    entries
}

fn draw<'a>(root: &Area<'a>, chart: &Chart, labels: &mut Labels<'_>) -> Drawn<'a> {
    root.fill(&WHITE)?;
    labels.put(&chart.title, (24, 12), 20.0, INK, (Across::Left, Down::Top));
    labels.put(
        &chart.subtitle,
        (24, 42),
        13.0,
        MUTED,
        (Across::Left, Down::Top),
    );

    let frame = frame_of(chart, labels);
    labels.put(
        &chart.y_title,
        (24, 68),
        12.0,
        MUTED,
        (Across::Left, Down::Top),
    );
    grid(root, &frame, &chart.x, &chart.y, labels)?;

    fills(root, &frame, chart)?;
    // the levels over the fills, under the lines
    levels(root, &frame, chart, labels)?;

    for s in &chart.series {
        line(root, &frame, s)?;
    }

    for mark in &chart.marks {
        if let Mark::Event { x, y, label } = mark {
            event(root, &frame, (*x, *y), label, labels)?;
        }
    }

    legend(root, &frame, chart, labels)
}

/// Where the plot goes: right of the widest tick label, above the legend's rows.
fn frame_of(chart: &Chart, labels: &mut Labels<'_>) -> Frame {
    let label_width = chart
        .y
        .ticks
        .iter()
        .map(|t| labels.width(&t.label, 12.0))
        .max()
        .unwrap_or(0);
    let left = f64::from(24 + label_width + 10).max(70.0);
    let legend_rows = legend_layout(labels, &chart.series, left as i32)
        .iter()
        .map(|e| e.3 + 1)
        .max()
        .unwrap_or(0);
    Frame {
        left,
        right: f64::from(WIDTH) - 28.0,
        top: 92.0,
        bottom: f64::from(HEIGHT) - 38.0 - 24.0 * f64::from(legend_rows),
        x: (chart.x.min, chart.x.max),
        y: (chart.y.min, chart.y.max),
    }
}

/// The areas under the series that have a fill, down (or up) to zero.
fn fills<'a>(root: &Area<'a>, frame: &Frame, chart: &Chart) -> Drawn<'a> {
    for s in &chart.series {
        if let Some(fill) = fill(s.style) {
            let zero = frame.py(0.clamp(chart.y.min, chart.y.max));
            let known: Vec<(i64, i64)> = s
                .points
                .iter()
                .filter_map(|(x, v)| v.map(|v| (*x, v)))
                .collect();
            if let (Some(first), Some(last)) = (known.first(), known.last()) {
                let mut polygon = vec![(frame.px(first.0), zero)];
                polygon.extend(known.iter().map(|(x, v)| frame.point(*x, *v)));
                polygon.push((frame.px(last.0), zero));
                root.draw(&Polygon::new(polygon, fill.filled()))?;
            }
        }
    }
    Ok(())
}

/// The level marks (zero, a goal), over the fills and under the lines.
fn levels<'a>(root: &Area<'a>, frame: &Frame, chart: &Chart, labels: &mut Labels<'_>) -> Drawn<'a> {
    for mark in &chart.marks {
        if let Mark::Level { at, label } = mark {
            let y = frame.py(*at);
            let (l, r) = (frame.left as i32, frame.right as i32);
            if *at == 0 {
                root.draw(&PathElement::new(
                    vec![(l, y), (r, y)],
                    ZERO.stroke_width(1),
                ))?;
            } else {
                root.draw(&DashedPathElement::new(
                    vec![(l, y), (r, y)],
                    6,
                    4,
                    GOAL.stroke_width(1),
                ))?;
            }
            if !label.is_empty() {
                labels.put(
                    label,
                    (r - 4, y - 4),
                    12.0,
                    GOAL,
                    (Across::Right, Down::Bottom),
                );
            }
        }
    }
    Ok(())
}

/// The legend, under the x labels.
fn legend<'a>(root: &Area<'a>, frame: &Frame, chart: &Chart, labels: &mut Labels<'_>) -> Drawn<'a> {
    let legend_top = frame.bottom as i32 + 34;
    for (name, style, x, row) in legend_layout(labels, &chart.series, frame.left as i32) {
        let y = legend_top + row * 24 + 8;
        let c = colour(style);
        root.draw(&PathElement::new(
            vec![(x, y), (x + 22, y)],
            c.stroke_width(width(style).max(2)),
        ))?;
        if dots(style) {
            root.draw(&Circle::new((x + 11, y), 3, c.filled()))?;
        }
        labels.put(&name, (x + 28, y), 13.0, INK, (Across::Left, Down::Middle));
    }
    Ok(())
}

/// Grid lines, axis lines and tick labels.
fn grid<'a>(
    root: &Area<'a>,
    frame: &Frame,
    x: &Axis,
    y: &Axis,
    labels: &mut Labels<'_>,
) -> Drawn<'a> {
    let (l, r) = (frame.left as i32, frame.right as i32);
    let (t, b) = (frame.top as i32, frame.bottom as i32);
    for tick in &y.ticks {
        let py = frame.py(tick.at);
        root.draw(&PathElement::new(
            vec![(l, py), (r, py)],
            GRID.stroke_width(1),
        ))?;
        labels.put(
            &tick.label,
            (l - 8, py),
            12.0,
            MUTED,
            (Across::Right, Down::Middle),
        );
    }
    for tick in &x.ticks {
        let px = frame.px(tick.at);
        root.draw(&PathElement::new(
            vec![(px, t), (px, b)],
            GRID.stroke_width(1),
        ))?;
        root.draw(&PathElement::new(
            vec![(px, b), (px, b + 5)],
            AXIS.stroke_width(1),
        ))?;
        // keep the label on the canvas
        let half = labels.width(&tick.label, 12.0) / 2;
        let cx = px.clamp(half + 4, WIDTH as i32 - half - 4);
        labels.put(
            &tick.label,
            (cx, b + 9),
            12.0,
            MUTED,
            (Across::Centre, Down::Top),
        );
    }
    root.draw(&PathElement::new(
        vec![(l, t), (l, b)],
        AXIS.stroke_width(1),
    ))?;
    root.draw(&PathElement::new(
        vec![(l, b), (r, b)],
        AXIS.stroke_width(1),
    ))?;
    Ok(())
}

/// A series' line, broken where a value is missing; a dot on each figure of a month chart, and
/// on a figure standing alone between gaps.
fn line<'a>(root: &Area<'a>, frame: &Frame, s: &Series) -> Drawn<'a> {
    let w = width(s.style);
    if w == 0 {
        return Ok(());
    }
    let c = colour(s.style);
    for run in s.points.split(|(_, v)| v.is_none()) {
        let pixels: Vec<(i32, i32)> = run
            .iter()
            .filter_map(|(x, v)| v.map(|v| frame.point(*x, v)))
            .collect();
        if pixels.len() >= 2 {
            root.draw(&PathElement::new(pixels.clone(), c.stroke_width(w)))?;
        }
        if dots(s.style) || pixels.len() == 1 {
            for p in &pixels {
                root.draw(&Circle::new(*p, 4, c.filled()))?;
            }
        }
    }
    Ok(())
}

/// A dated event: a dashed line top to bottom, a dot on the value, its label near the top on the
/// side with room, over a white box.
fn event<'a>(
    root: &Area<'a>,
    frame: &Frame,
    (x, y): (i64, i64),
    label: &str,
    labels: &mut Labels<'_>,
) -> Drawn<'a> {
    let (px, py) = frame.point(x, y);
    let (t, b) = (frame.top as i32, frame.bottom as i32);
    root.draw(&DashedPathElement::new(
        vec![(px, t), (px, b)],
        5,
        4,
        ALERT.stroke_width(2),
    ))?;
    root.draw(&Circle::new((px, py), 6, ALERT.filled()))?;
    root.draw(&Circle::new((px, py), 3, WHITE.filled()))?;
    let (w, h) = (labels.width(label, 13.0), 16);
    let room_right = frame.right as i32 - px;
    let lx = if room_right >= w + 12 {
        px + 8
    } else {
        (px - 8 - w).max(frame.left as i32 + 4)
    };
    let ly = t + 6;
    root.draw(&Rectangle::new(
        [(lx - 4, ly - 3), (lx + w + 4, ly + h + 3)],
        WHITE.filled(),
    ))?;
    labels.put(label, (lx, ly), 13.0, ALERT, (Across::Left, Down::Top));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::chart::{month_axis, value_axis};
    use crate::months::CalendarMonth;

    fn months(n: u32) -> Vec<CalendarMonth> {
        (1..=n)
            .filter_map(|m| CalendarMonth::new(2026, m))
            .collect()
    }

    /// Every shape and label kind at once: legend rows that wrap, names in scripts the font lacks,
    /// a gap, a lone figure, a level and an event at the right edge (its label goes left).
    fn busy_chart() -> Chart {
        let names = [
            "Groceries & household supplies…",
            "日本語のカテゴリ",
            "🏠 Rent",
            "Électricité",
            "Transport",
            "Others (12 categories)",
        ];
        let series = names
            .iter()
            .enumerate()
            .map(|(n, name)| Series {
                legend: Some((*name).to_string()),
                style: if n == 5 {
                    Style::Others
                } else {
                    Style::Category(n)
                },
                points: vec![
                    (0, Some(1_000 * i64::try_from(n).unwrap_or(0))),
                    (10, None),
                    (20, Some(-50_000)),
                    (30, Some(120_000)),
                ],
            })
            .collect();
        Chart {
            title: "A busy chart".into(),
            subtitle: "Every kind of shape".into(),
            x: month_axis(&months(4)),
            y: value_axis([-50_000, 120_000], 1_000, |v| format!("{v}")),
            y_title: "Amount".into(),
            series,
            marks: vec![
                Mark::Level {
                    at: 30_000,
                    label: "a level".into(),
                },
                Mark::Event {
                    x: 30,
                    y: 120_000,
                    label: "An event at the right edge, labelled to its left".into(),
                },
            ],
        }
    }

    #[test]
    fn a_busy_chart_is_a_png_of_the_canvas_size() {
        let bytes = png(&busy_chart()).expect("drawn");
        let decoder = ::png::Decoder::new(std::io::Cursor::new(bytes.as_slice()));
        let reader = decoder.read_info().expect("a PNG");
        let info = reader.info();
        assert_eq!((info.width, info.height), (WIDTH, HEIGHT));
        assert_eq!(
            attachment(Ok(busy_chart())),
            Attachment::Png(bytes),
            "drawing is deterministic"
        );
    }

    #[test]
    fn nothing_to_draw_is_the_sentence_itself() {
        assert_eq!(
            attachment(Err(NothingToDraw("No chart: why.".into()))),
            Attachment::Note("No chart: why.".into())
        );
    }

    #[test]
    fn labels_are_measured_with_the_embedded_font() {
        let font = FontRef::try_from_slice(FONT).expect("the embedded font");
        let wide = text_width(&font, "WWWW", 12.0);
        let narrow = text_width(&font, "iiii", 12.0);
        assert!(wide > 2.0 * narrow, "{wide} vs {narrow}");
        assert_eq!(text_width(&font, "", 12.0), 0.0);
    }
}
