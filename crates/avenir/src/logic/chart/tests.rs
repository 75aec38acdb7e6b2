//! Tests of the chart descriptions: currency ticks, month and day labels, legend names, and each
//! chart's series, marks and "nothing to draw" sentences.

use super::*;

fn euro() -> CurrencyFormat {
    CurrencyFormat {
        iso_code: "EUR".into(),
        example_format: "123.456,78".into(),
        decimal_digits: 2,
        decimal_separator: ",".into(),
        symbol_first: false,
        group_separator: ".".into(),
        currency_symbol: "€".into(),
        display_symbol: true,
    }
}

fn dollar() -> CurrencyFormat {
    CurrencyFormat {
        iso_code: "USD".into(),
        example_format: "123,456.78".into(),
        decimal_digits: 2,
        decimal_separator: ".".into(),
        symbol_first: true,
        group_separator: ",".into(),
        currency_symbol: "$".into(),
        display_symbol: true,
    }
}

fn d(text: &str) -> NaiveDate {
    crate::args::parse_date(text).expect("a date")
}

fn m(year: i32, month: u32) -> CalendarMonth {
    CalendarMonth::new(year, month).expect("a month")
}

fn labels(axis: &Axis) -> Vec<&str> {
    axis.ticks.iter().map(|t| t.label.as_str()).collect()
}

#[test]
fn amounts_are_written_in_the_plans_format() {
    let usd = ChartMoney::of(Some(&dollar()));
    assert_eq!(usd.whole(1_234_000), "$1,234");
    assert_eq!(usd.whole(-25_000_000), "-$25,000");
    assert_eq!(usd.whole(0), "$0");
    assert_eq!(usd.full(1_234_567_890), "$1,234,567.89");
    assert_eq!(usd.full(-22_500), "-$22.50");
    assert_eq!(usd.full(-4), "$0.00");
    assert_eq!(usd.titled("Balance"), "Balance (USD)");

    let eur = ChartMoney::of(Some(&euro()));
    assert_eq!(eur.whole(1_234_000), "1.234€");
    assert_eq!(eur.full(-1_234_500), "-1.234,50€");
    assert_eq!(eur.full(999_990), "999,99€");

    let hidden = ChartMoney::of(Some(&CurrencyFormat {
        display_symbol: false,
        decimal_digits: 0,
        ..dollar()
    }));
    assert_eq!(hidden.full(1_234_600), "1,235");

    let none = ChartMoney::of(None);
    assert_eq!(none.full(1_234_500), "1,234.50");
    assert_eq!(none.titled("Balance"), "Balance");
}

#[test]
fn amount_axes_include_zero_and_round_out_to_a_nice_step() {
    let usd = ChartMoney::of(Some(&dollar()));
    let axis = value_axis([1_200_000, 3_850_000], 1_000, |v| usd.whole(v));
    assert_eq!((axis.min, axis.max), (0, 4_000_000));
    assert_eq!(
        labels(&axis),
        ["$0", "$1,000", "$2,000", "$3,000", "$4,000"]
    );

    let axis = value_axis([-450_000, 2_100_000], 1_000, |v| usd.whole(v));
    assert_eq!(
        labels(&axis),
        ["-$1,000", "$0", "$1,000", "$2,000", "$3,000"]
    );

    // all zero: one step above zero, never an empty range
    let axis = value_axis([0, 0], 1_000, |v| usd.whole(v));
    assert_eq!(labels(&axis), ["$0", "$1"]);

    // small spans never go below one unit a step
    let axis = value_axis([2_500], 1_000, |v| usd.whole(v));
    assert_eq!(labels(&axis), ["$0", "$1", "$2", "$3"]);

    // every tick sits on a multiple of the step, at most 7 intervals
    for (low, high) in [(-7_000_000, 123_456_789), (0, 999), (-1, 1), (5, 50_001)] {
        let axis = value_axis([low, high], 1_000, |v| v.to_string());
        let step = axis.ticks[1].at - axis.ticks[0].at;
        assert!(axis.ticks.len() <= 8, "{low}..{high}: {:?}", axis.ticks);
        assert!(axis.min <= low.min(0) && axis.max >= high.max(0));
        assert!(axis.ticks.iter().all(|t| t.at % step == 0));
    }
}

#[test]
fn months_and_days_are_labelled_in_words() {
    assert_eq!(month_label(m(2026, 9)), "Sep 2026");
    assert_eq!(month_label(m(2027, 1)), "Jan 2027");
    assert_eq!(day_label(d("2026-11-04")), "4 Nov 2026");

    let twelve: Vec<CalendarMonth> = (0..12)
        .map(|i| {
            if i < 3 {
                m(2025, 10 + i)
            } else {
                m(2026, i - 2)
            }
        })
        .collect();
    let axis = month_axis(&twelve);
    // at most 9 labels: every second month, ending on the last
    assert_eq!(
        labels(&axis),
        [
            "Nov 2025", "Jan 2026", "Mar 2026", "May 2026", "Jul 2026", "Sep 2026"
        ]
    );
    assert_eq!(axis.ticks.last().map(|t| t.at), Some(month_position(11)));
    assert_eq!((axis.min, axis.max), (-5, 115));

    // a long forecast: month starts; a short one: weekly days
    let axis = day_axis(d("2026-09-25"), d("2026-12-31"));
    assert_eq!(labels(&axis), ["Oct 2026", "Nov 2026", "Dec 2026"]);
    assert_eq!(axis.ticks[0].at, 6);
    assert_eq!(axis.max, 97);
    let axis = day_axis(d("2026-09-25"), d("2026-09-30"));
    assert_eq!(
        labels(&axis),
        ["25 Sep", "26 Sep", "27 Sep", "28 Sep", "29 Sep", "30 Sep"]
    );
    let axis = day_axis(d("2026-09-25"), d("2026-10-31"));
    assert_eq!(
        labels(&axis),
        ["25 Sep", "2 Oct", "9 Oct", "16 Oct", "23 Oct", "30 Oct"]
    );
    let axis = day_axis(d("2026-09-25"), d("2028-09-30"));
    assert!(axis.ticks.len() <= 9, "{:?}", labels(&axis));
}

#[test]
fn legend_names_are_safe_and_cut() {
    assert_eq!(legend_name("Groceries"), "Groceries");
    let long = legend_name("A category name far longer than any legend should hold");
    assert_eq!(long.chars().count(), LEGEND_CHARS);
    assert!(long.ends_with('…'));
    assert_eq!(
        legend_name("Rent\u{202e}evil\n"),
        safe("Rent\u{202e}evil\n")
    );
}

fn days(start: &str, balances: &[i64]) -> Vec<(NaiveDate, i64)> {
    balances
        .iter()
        .enumerate()
        .map(|(i, v)| (d(start) + chrono::Days::new(i as u64), *v))
        .collect()
}

#[test]
fn the_forecast_marks_its_first_day_below_zero_in_the_shortfall_month() {
    let usd = ChartMoney::of(Some(&dollar()));
    // 28 Sep → 3 Oct: below zero on 30 Sep, again on 2 Oct
    let walk = days(
        "2026-09-28",
        &[50_000, 10_000, -5_000, 20_000, -30_000, -40_000],
    );
    let chart = forecast_chart(&usd, &walk, Some(m(2026, 9)), 2).expect("a chart");
    assert_eq!(chart.title, "Projected balance, 28 Sep 2026 – 3 Oct 2026");
    assert_eq!(
        chart.subtitle,
        "2 accounts together: goes below zero in Sep 2026. A projection: check its assumptions in the answer."
    );
    assert_eq!(chart.y_title, "Balance (USD)");
    assert!(chart.marks.contains(&Mark::Event {
        x: 2,
        y: -5_000,
        label: "First shortfall: Sep 2026 (below zero on 30 Sep 2026)".into(),
    }));
    assert!(chart.marks.contains(&Mark::Level {
        at: 0,
        label: String::new()
    }));
    assert_eq!(chart.series[0].style, Style::Balance);
    assert_eq!(chart.series[0].points[4], (4, Some(-30_000)));
    assert_eq!(chart.series[1].style, Style::BelowZero);
    assert_eq!(chart.series[1].points[3], (3, Some(0)));
    assert_eq!(
        labels(&chart.y),
        ["-$40", "-$20", "$0", "$20", "$40", "$60"]
    );

    // a shortfall month after a dip that recovered within an earlier month is impossible, but
    // the mark follows the month the answer names: October's first day below zero
    let chart = forecast_chart(&usd, &walk, Some(m(2026, 10)), 1).expect("a chart");
    assert!(chart.marks.iter().any(|mark| matches!(
        mark,
        Mark::Event { x: 4, y: -30_000, label } if label.ends_with("(below zero on 2 Oct 2026)")
    )));

    // no shortfall: no event, no red fill
    let chart =
        forecast_chart(&usd, &days("2026-09-25", &[5_000, 4_000]), None, 1).expect("a chart");
    assert!(!chart.marks.iter().any(|m| matches!(m, Mark::Event { .. })));
    assert_eq!(chart.series.len(), 1);
    assert!(
        chart
            .subtitle
            .starts_with("1 account: stays above zero until Sep 2026.")
    );
}

#[test]
fn a_forecast_with_no_day_ahead_is_not_drawn() {
    let usd = ChartMoney::of(Some(&dollar()));
    let nothing =
        forecast_chart(&usd, &days("2026-09-30", &[5_000]), None, 1).expect_err("nothing to draw");
    assert!(nothing.0.contains("Ask a later until"), "{nothing}");
}

fn worth(month: CalendarMonth, assets: i64, debts: i64) -> NetWorthRow {
    NetWorthRow {
        month,
        assets,
        debts,
        net_worth: assets + debts,
    }
}

#[test]
fn net_worth_draws_three_lines_by_month() {
    let usd = ChartMoney::of(Some(&dollar()));
    let rows = [
        worth(m(2026, 7), 10_000_000, -2_500_000),
        worth(m(2026, 8), 11_000_000, -2_000_000),
        worth(m(2026, 9), 12_500_500, -1_500_000),
    ];
    let chart = net_worth_chart(&usd, &rows).expect("a chart");
    let legend: Vec<_> = chart
        .series
        .iter()
        .filter_map(|s| s.legend.clone())
        .collect();
    assert_eq!(legend, ["Assets", "Debts", "Net worth"]);
    assert_eq!(
        chart.series[2].points,
        [
            (0, Some(7_500_000)),
            (10, Some(9_000_000)),
            (20, Some(11_000_500))
        ]
    );
    assert_eq!(chart.title, "Net worth, Jul 2026 – Sep 2026");
    assert_eq!(
        chart.subtitle,
        "At each month's end, Sep 2026 so far: net worth $7,500.00 → $11,000.50."
    );
    assert_eq!(labels(&chart.x), ["Jul 2026", "Aug 2026", "Sep 2026"]);
    assert_eq!(
        chart.y.ticks.first().map(|t| t.label.as_str()),
        Some("-$5,000")
    );
    assert_eq!(
        chart.y.ticks.last().map(|t| t.label.as_str()),
        Some("$15,000")
    );

    let nothing = net_worth_chart(&usd, &rows[..1]).expect_err("one month");
    assert_eq!(
        nothing.0,
        "No chart: one month is no trend. Ask months_count 2 or more to chart net worth."
    );
}

fn category(name: &str, amounts: &[(CalendarMonth, i64)]) -> SpendingCategory {
    SpendingCategory {
        name: name.into(),
        months: amounts.to_vec(),
    }
}

#[test]
fn spending_keeps_the_top_categories_and_groups_the_rest() {
    let usd = ChartMoney::of(Some(&dollar()));
    let (jul, aug) = (m(2026, 7), m(2026, 8));
    let mut categories: Vec<SpendingCategory> = (1..=7)
        .map(|i| category(&format!("C{i}"), &[(jul, i * 10_000), (aug, i * 20_000)]))
        .collect();
    // absent in July: zero there
    categories.push(category("Late", &[(aug, 5_000)]));
    categories.push(category("Idle", &[(jul, 0), (aug, 0)]));
    let chart = spending_chart(&usd, &categories, aug).expect("a chart");
    let legend: Vec<_> = chart
        .series
        .iter()
        .filter_map(|s| s.legend.clone())
        .collect();
    assert_eq!(
        legend,
        ["C7", "C6", "C5", "C4", "C3", "Others (3 categories)"]
    );
    // others: C2, C1 and Late
    assert_eq!(
        chart.series[5].points,
        [(0, Some(30_000)), (10, Some(65_000))]
    );
    assert_eq!(chart.series[5].style, Style::Others);
    assert_eq!(chart.series[0].style, Style::Category(0));
    assert_eq!(
        chart.subtitle,
        "The 5 categories that spent most, of 8; refunds reduce spending; Aug 2026 to date."
    );
    assert_eq!(chart.y_title, "Spent (USD)");

    let only_idle = [category("Idle", &[(jul, 0), (aug, 0)])];
    assert_eq!(
        spending_chart(&usd, &only_idle, aug)
            .expect_err("nothing")
            .0,
        "No chart: no category has spending in these months."
    );
    let one = [category("C1", &[(aug, 5_000)])];
    assert!(spending_chart(&usd, &one, aug).is_err());

    // six categories: the sixth keeps its name, no "Others"
    let six: Vec<SpendingCategory> = (1..=6)
        .map(|i| category(&format!("C{i}"), &[(jul, i * 10_000), (aug, 1_000)]))
        .collect();
    let chart = spending_chart(&usd, &six, aug).expect("a chart");
    let legend: Vec<_> = chart
        .series
        .iter()
        .filter_map(|s| s.legend.clone())
        .collect();
    assert_eq!(legend, ["C6", "C5", "C4", "C3", "C2", "C1"]);
    assert_eq!(chart.series[5].style, Style::Category(5));
    assert!(
        chart
            .subtitle
            .starts_with("Every category with spending (6)")
    );
}

#[test]
fn age_of_money_breaks_its_line_where_ynab_gives_no_figure() {
    let rows = [
        AgeRow {
            month: m(2026, 6),
            days: Some(12),
        },
        AgeRow {
            month: m(2026, 7),
            days: None,
        },
        AgeRow {
            month: m(2026, 8),
            days: Some(41),
        },
    ];
    let chart = age_chart(&rows).expect("a chart");
    assert_eq!(
        chart.series[0].points,
        [(0, Some(12)), (10, None), (20, Some(41))]
    );
    assert_eq!(labels(&chart.y), ["0", "10", "20", "30", "40", "50"]);
    assert!(chart.marks.contains(&Mark::Level {
        at: 30,
        label: "30 days: living on last month's income".into()
    }));
    assert!(
        chart
            .subtitle
            .contains("a gap is a month YNAB gives no figure for")
    );

    let sparse = [rows[0], rows[1]];
    assert_eq!(
        age_chart(&sparse).expect_err("one figure").0,
        "No chart: YNAB gives an Age of Money for 1 of these months; a chart needs two."
    );
}
