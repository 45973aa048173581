//! Instants: epoch milliseconds or ISO-8601 strings with an offset, and local RFC 3339 output.

use crate::civil::{civil_from_days, days_from_civil, digits, month_len, DAY_MS};
use crate::error::Error;
use crate::json::Value;
use crate::tz::Zone;

/// The range of a JavaScript `Date`: ±100,000,000 days around 1970.
pub const MAX_MS: i64 = 8_640_000_000_000_000;

/// Reads an instant from epoch milliseconds (an integer) or an ISO-8601 string with `Z` or an offset.
///
/// ```
/// use access_window::{instant::parse_instant, json::Value};
/// let at = Value::Str("2026-01-02T09:00:00+01:00".into());
/// assert_eq!(parse_instant(&at, "at").unwrap(), 1_767_340_800_000);
/// assert_eq!(parse_instant(&Value::Num(5.0), "at").unwrap(), 5);
/// assert_eq!(parse_instant(&Value::Str("2026-01-02T09:00".into()), "at").unwrap_err().code(), "at.invalid");
/// ```
pub fn parse_instant(v: &Value, field: &'static str) -> Result<i64, Error> {
    let code = match field {
        "at" => "at.invalid",
        "from" => "from.invalid",
        "to" => "to.invalid",
        _ => "firstEntryAt.invalid",
    };
    let parsed = match v {
        Value::Num(n) => from_f64(*n),
        Value::Str(s) => parse_iso(s),
        _ => None,
    };
    parsed.ok_or_else(|| {
        Error::new(code, field, format!("{} must be epoch milliseconds or an ISO-8601 instant with an offset, got {}", field, v.describe()))
    })
}

/// Epoch milliseconds from a JavaScript number: integral and within the `Date` range.
pub fn from_f64(n: f64) -> Option<i64> {
    // `as` saturates and maps NaN to 0, so the round trip rejects fractions, NaN and infinities.
    let t = n as i64;
    if t as f64 == n && t.abs() <= MAX_MS {
        Some(t)
    } else {
        None
    }
}

/// `YYYY-MM-DDTHH:mm[:ss[.fff…]](Z|±HH:MM)`; `t`, `z` and a space separator are accepted too.
fn parse_iso(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() < 17 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') || b[13] != b':' {
        return None;
    }
    let y = digits(&b[0..4])? as i64;
    let (mo, d, h, mi) = (digits(&b[5..7])?, digits(&b[8..10])?, digits(&b[11..13])?, digits(&b[14..16])?);
    if !(1..=12).contains(&mo) || d < 1 || d > month_len(y, mo) || h > 23 || mi > 59 {
        return None;
    }
    let mut i = 16;
    let (mut sec, mut ms) = (0, 0i64);
    if b.get(i) == Some(&b':') {
        sec = digits(b.get(i + 1..i + 3)?)?;
        if sec > 59 {
            return None;
        }
        i += 3;
        if matches!(b.get(i), Some(b'.') | Some(b',')) {
            let start = i + 1;
            i = start;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let frac = &b[start..i];
            if frac.is_empty() || frac.len() > 9 {
                return None;
            }
            // Milliseconds, truncated: finer digits cannot be represented.
            ms = frac.iter().take(3).fold(0, |a, &c| a * 10 + (c - b'0') as i64) * 10i64.pow(3 - frac.len().min(3) as u32);
        }
    }
    let offset = match &b[i..] {
        [b'Z'] | [b'z'] => 0,
        [sign @ (b'+' | b'-'), hh @ ..] if hh.len() == 5 && hh[2] == b':' => {
            let (oh, om) = (digits(&hh[0..2])? as i64, digits(&hh[3..5])? as i64);
            if oh > 23 || om > 59 {
                return None;
            }
            let off = (oh * 60 + om) * 60_000;
            if *sign == b'-' {
                -off
            } else {
                off
            }
        }
        _ => return None,
    };
    let local = days_from_civil(y, mo, d) * DAY_MS + ((h * 60 + mi) * 60 + sec) as i64 * 1000 + ms;
    Some(local - offset)
}

/// RFC 3339 local time at `t` in `zone`, e.g. `2026-03-08T03:30:00-04:00` (milliseconds only when not zero,
/// offset seconds only when not zero).
///
/// ```
/// use access_window::{instant::format_local, Zone};
/// let ny = Zone::get("America/New_York").unwrap();
/// assert_eq!(format_local(1_772_955_000_000, &ny), "2026-03-08T03:30:00-04:00");
/// ```
pub fn format_local(t: i64, zone: &Zone) -> String {
    let off = zone.offset_at(t);
    let local = t + off as i64 * 1000;
    let days = local.div_euclid(DAY_MS);
    let ms = local.rem_euclid(DAY_MS);
    let (y, m, d) = civil_from_days(days);
    let (h, mi, s, frac) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
    let mut out = if (0..=9999).contains(&y) {
        format!("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}", y, m, d, h, mi, s)
    } else {
        format!("{:+07}-{:02}-{:02}T{:02}:{:02}:{:02}", y, m, d, h, mi, s)
    };
    if frac != 0 {
        out.push_str(&format!(".{:03}", frac));
    }
    let a = off.abs();
    out.push_str(&format!("{}{:02}:{:02}", if off < 0 { '-' } else { '+' }, a / 3600, a / 60 % 60));
    if a % 60 != 0 {
        out.push_str(&format!(":{:02}", a % 60));
    }
    out
}
