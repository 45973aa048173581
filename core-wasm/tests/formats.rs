//! The text formats at the boundary: JSON, ISO-8601 instants in, RFC 3339 local times out.

use access_window::instant::{format_local, parse_instant};
use access_window::json::{parse, quote, write, Value};
use access_window::Zone;

#[test]
fn instants() {
    // (input, epoch ms or None when rejected)
    let table: &[(&str, Option<i64>)] = &[
        ("1970-01-01T00:00:00Z", Some(0)),
        ("1970-01-01T00:00Z", Some(0)),
        ("1970-01-01t00:00:00.5z", Some(500)),
        ("1970-01-01 00:00:00,123456+00:00", Some(123)),
        ("1970-01-01T05:45:00+05:45", Some(0)),
        ("1969-12-31T23:59:59.999Z", Some(-1)),
        ("2024-02-29T12:00:00-03:30", Some(1_709_220_600_000)),
        ("2026-02-29T12:00:00Z", None),
        ("2026-01-01T24:00:00Z", None),
        ("2026-01-01T00:00:60Z", None),
        ("2026-01-01T00:00:00", None),
        ("2026-01-01T00:00:00+0100", None),
        ("2026-01-01", None),
        ("", None),
    ];
    for &(text, expected) in table {
        let got = parse_instant(&Value::Str(text.into()), "at").ok();
        assert_eq!(got, expected, "{:?}", text);
    }
    for n in [0.5, f64::NAN, f64::INFINITY, 8.64e15 + 1.0] {
        assert!(parse_instant(&Value::Num(n), "at").is_err(), "{}", n);
    }
    assert_eq!(parse_instant(&Value::Num(-8.64e15), "at").unwrap(), -8_640_000_000_000_000);
}

#[test]
fn local_times() {
    let table = [
        ("UTC", 0, "1970-01-01T00:00:00+00:00"),
        ("Pacific/Chatham", 1_790_431_200_000, "2026-09-27T03:45:00+13:45"),
        ("America/St_Johns", 1_772_947_799_999, "2026-03-08T01:59:59.999-03:30"),
        // Amsterdam Mean Time (until 1937): the offset has seconds.
        ("Europe/Amsterdam", -2_000_000_000_000, "1906-08-16T20:46:12+00:19:32"),
    ];
    for (tz, t, expected) in table {
        assert_eq!(format_local(t, &Zone::get(tz).unwrap()), expected, "{}", tz);
    }
}

#[test]
fn json() {
    let v = parse(r#" {"a": [1, -2.5e3, true, false, null], "s": "\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"} "#).unwrap();
    assert_eq!(
        v.get("a"),
        Some(&Value::Arr(vec![Value::Num(1.0), Value::Num(-2500.0), Value::Bool(true), Value::Bool(false), Value::Null]))
    );
    assert_eq!(v.get("s"), Some(&Value::Str("\"\\/\u{8}\u{c}\n\r\té😀".into())));
    assert_eq!(write(&v), r#"{"a":[1,-2500,true,false,null],"s":"\"\\/\u0008\u000c\n\r\té😀"}"#);
    for bad in ["", "{", "[1,]", r#"{"a" 1}"#, "01x", "tru", r#""\x""#, r#""\ud83d\u0041""#, "\"\u{1}\"", "1 2", &"[".repeat(100)] {
        assert!(parse(bad).is_err(), "{:?}", bad);
    }
    assert_eq!(quote("\u{1f}"), r#""\u001f""#);
}
