//! The reference's rounding primitives (`docs/contract/reads.md` §1.3) on exact values: a quotient
//! of two integers rounded half to even, to the unit, to tens or to tenths, never through a float
//! (D8).
//!
//! The reference rounds binary floats; on exact values the results agree except on exact ties,
//! which here always go to the even neighbour, as its own rule intends.

/// `n / d` rounded to the nearest integer, ties to even (`round_int` of the exact quotient).
/// `d` = 0 gives 0.
pub fn div_half_even(n: i128, d: i128) -> i128 {
    if d == 0 {
        return 0;
    }
    let (n, d) = if d < 0 {
        (n.saturating_neg(), d.saturating_neg())
    } else {
        (n, d)
    };
    let quotient = n.div_euclid(d);
    let twice = n.rem_euclid(d).saturating_mul(2);
    if twice > d || (twice == d && quotient.rem_euclid(2) == 1) {
        quotient + 1
    } else {
        quotient
    }
}

/// `n / d` milliunits rounded to the nearest multiple of 10 (the cent), ties to the even tens
/// (`round_tens`, Python's `round(x, -1)`).
pub fn div_round_tens(n: i128, d: i128) -> i128 {
    div_half_even(n, d.saturating_mul(10)).saturating_mul(10)
}

/// `n / d` in tenths, rounded half to even (`round_dp(x, 1)` kept as an integer of tenths).
pub fn div_tenths(n: i128, d: i128) -> i128 {
    div_half_even(n.saturating_mul(10), d)
}

/// An amount kept in `i128` while computing, back in `i64` milliunits for an answer (saturated at
/// the ends of the range, which no real plan reaches).
pub fn to_i64(value: i128) -> i64 {
    i64::try_from(value).unwrap_or(if value < 0 { i64::MIN } else { i64::MAX })
}

/// Tenths written as Python writes a float with one decimal (`2.0`, `2.7`, `-0.5`), the way
/// figures such as a runway appear in sentences (`docs/contract/reads.md` §1.3).
pub fn tenths_text(tenths: i128) -> String {
    let sign = if tenths < 0 { "-" } else { "" };
    let abs = tenths.unsigned_abs();
    format!("{sign}{}.{}", abs / 10, abs % 10)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn ties_go_to_even() {
        assert_eq!(div_half_even(5, 2), 2);
        assert_eq!(div_half_even(7, 2), 4);
        assert_eq!(div_half_even(-5, 2), -2);
        assert_eq!(div_half_even(-7, 2), -4);
        assert_eq!(div_half_even(5, -2), -2);
        assert_eq!(div_half_even(1, 3), 0);
        assert_eq!(div_half_even(2, 3), 1);
        assert_eq!(div_half_even(9, 0), 0);
    }

    #[test]
    fn tens_are_cents() {
        // 1000.00 at 12 % a year: a month is 10.00
        assert_eq!(div_round_tens(1_000_000 * 12_000, 1_200_000), 10_000);
        // 15 milliunits is a tie between 10 and 20: the even tens is 20
        assert_eq!(div_round_tens(15, 1), 20);
        assert_eq!(div_round_tens(25, 1), 20);
        assert_eq!(div_round_tens(5, 1), 0);
        assert_eq!(div_round_tens(-15, 1), -20);
        assert_eq!(div_round_tens(14, 1), 10);
    }

    #[test]
    fn tenths_and_their_text() {
        assert_eq!(div_tenths(3_000_000, 1_015_000), 30);
        assert_eq!(div_tenths(3_000_000, 1_500_000), 20);
        assert_eq!(div_tenths(5, 100), 0, "0.05 is a tie: 0.0");
        assert_eq!(div_tenths(15, 100), 2, "0.15 is a tie: 0.2");
        assert_eq!(tenths_text(20), "2.0");
        assert_eq!(tenths_text(27), "2.7");
        assert_eq!(tenths_text(0), "0.0");
        assert_eq!(tenths_text(-5), "-0.5");
        assert_eq!(tenths_text(12_345), "1234.5");
        assert_eq!(to_i64(i128::MAX), i64::MAX);
        assert_eq!(to_i64(i128::MIN), i64::MIN);
        assert_eq!(to_i64(-42), -42);
    }

    proptest! {
        #[test]
        fn the_nearest_integer(n in -1_000_000_000_000i128..1_000_000_000_000, d in 1i128..1_000_000) {
            let q = div_half_even(n, d);
            // |n/d − q| ≤ 1/2, i.e. |n − q·d| ≤ d/2
            prop_assert!((n - q * d).abs() * 2 <= d);
            if (n - q * d).abs() * 2 == d {
                prop_assert_eq!(q.rem_euclid(2), 0);
            }
            prop_assert_eq!(div_round_tens(n, d).rem_euclid(10), 0);
        }
    }
}
