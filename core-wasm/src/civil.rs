//! Proleptic Gregorian calendar arithmetic on day numbers (days since 1970-01-01).

/// Milliseconds in a civil day.
pub const DAY_MS: i64 = 86_400_000;

/// Days since 1970-01-01 of a civil date (H. Hinnant's algorithm).
///
/// ```
/// assert_eq!(access_window::civil::days_from_civil(1970, 1, 1), 0);
/// assert_eq!(access_window::civil::days_from_civil(2000, 3, 1), 11_017);
/// ```
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = m as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Civil date `(year, month, day)` of a day number.
///
/// ```
/// assert_eq!(access_window::civil::civil_from_days(19_723), (2024, 1, 1));
/// ```
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { yoe + era * 400 + 1 } else { yoe + era * 400 }, m, d)
}

/// Weekday of a day number, Monday = 0 … Sunday = 6.
///
/// ```
/// assert_eq!(access_window::civil::weekday(0), 3); // 1970-01-01 was a Thursday
/// ```
#[inline]
pub fn weekday(days: i64) -> usize {
    // Day numbers of JavaScript dates fit in i32, and 32-bit division by a constant is cheap in WASM.
    ((days as i32).wrapping_add(3)).rem_euclid(7) as usize
}

/// Splits milliseconds since 1970-01-01 into the day number and the milliseconds into that day.
///
/// WASM has no 64-bit multiply-high, so `div_euclid(DAY_MS)` costs a real 64-bit division; an
/// f64 estimate (off by at most one day) corrected by one step is exact and much faster.
///
/// ```
/// use access_window::civil::{split_day, DAY_MS};
/// assert_eq!(split_day(-1), (-1, DAY_MS - 1));
/// assert_eq!(split_day(3 * DAY_MS + 5), (3, 5));
/// ```
#[inline]
pub fn split_day(ms: i64) -> (i64, i64) {
    let mut day = (ms as f64 * (1.0 / DAY_MS as f64)) as i64;
    let mut rem = ms - day * DAY_MS;
    if rem < 0 {
        day -= 1;
        rem += DAY_MS;
    } else if rem >= DAY_MS {
        day += 1;
        rem -= DAY_MS;
    }
    (day, rem)
}

pub fn is_leap(y: i64) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

pub fn month_len(y: i64, m: u32) -> u32 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Parses `YYYY-MM-DD` into a day number; `None` when malformed or not a real date.
///
/// ```
/// assert_eq!(access_window::civil::parse_date("1970-01-02"), Some(1));
/// assert_eq!(access_window::civil::parse_date("2026-02-29"), None);
/// ```
pub fn parse_date(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let y = digits(&b[0..4])? as i64;
    let m = digits(&b[5..7])?;
    let d = digits(&b[8..10])?;
    if !(1..=12).contains(&m) || d < 1 || d > month_len(y, m) {
        return None;
    }
    Some(days_from_civil(y, m, d))
}

/// Parses `HH:mm` (00:00 to 23:59) into minutes after midnight.
///
/// ```
/// assert_eq!(access_window::civil::parse_time("17:30"), Some(1050));
/// assert_eq!(access_window::civil::parse_time("24:00"), None);
/// ```
pub fn parse_time(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() != 5 || b[2] != b':' {
        return None;
    }
    let h = digits(&b[0..2])?;
    let m = digits(&b[3..5])?;
    if h > 23 || m > 59 {
        return None;
    }
    Some((h * 60 + m) as i64)
}

pub(crate) fn digits(b: &[u8]) -> Option<u32> {
    if b.is_empty() {
        return None;
    }
    b.iter().try_fold(0u32, |acc, &c| if c.is_ascii_digit() { Some(acc * 10 + (c - b'0') as u32) } else { None })
}

/// Formats a day number as `YYYY-MM-DD`.
pub fn format_date(days: i64) -> String {
    let (y, m, d) = civil_from_days(days);
    format!("{:04}-{:02}-{:02}", y, m, d)
}

/// Formats minutes after midnight as `HH:mm`.
pub fn format_minutes(min: i64) -> String {
    format!("{:02}:{:02}", min / 60, min % 60)
}
