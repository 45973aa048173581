//! Decisions over a user's keys, and the JSON operations the CLI and the WASM module expose.

use access_window::api::{call, Op};

const BERLIN_OFFICE: &str = r#"{"kind":"ekey","access":"custom","tz":"Europe/Berlin","startDate":"2026-03-01","endDate":"2026-06-30","days":[true,true,true,true,true,false,false],"allDay":false,"startTime":"08:00","endTime":"17:30","used":false}"#;
const NIGHT_GROUP: &str = r#"{"kind":"group","tz":"Europe/Berlin","days":[false,false,false,false,false,true,true],"allDay":false,"startTime":"22:00","endTime":"06:00"}"#;

fn decide(keys: &str, at: &str, lang: &str) -> String {
    call(Op::Decide, &format!(r#"{{"keys":{},"at":"{}","lang":"{}"}}"#, keys, at, lang))
}

fn keys() -> String {
    format!(
        r#"[{{"id":"k1","label":"Office e-key","window":{}}},{{"id":7,"label":"Night shift","window":{}}}]"#,
        BERLIN_OFFICE, NIGHT_GROUP
    )
}

#[test]
fn reasons_in_english_and_spanish() {
    // (instant, lang, expected answer)
    let table = [
        (
            "2026-03-14T16:00:00Z", // Sat 17:00 Berlin: neither key; the office key opens Mon 08:00, the group Sat 22:00
            "en",
            r#"{"allowed":false,"key":{"id":7,"label":"Night shift"},"reason":"outside Sat, Sun 22:00–06:00 Europe/Berlin; next opens Sat 22:00","until":null,"nextOpen":1773522000000}"#,
        ),
        (
            "2026-03-16T06:00:00Z", // Mon 07:00: the office key opens first
            "en",
            r#"{"allowed":false,"key":{"id":"k1","label":"Office e-key"},"reason":"outside Mon–Fri 08:00–17:30 Europe/Berlin; next opens Mon 08:00","until":null,"nextOpen":1773644400000}"#,
        ),
        (
            "2026-03-16T06:00:00Z",
            "es",
            r#"{"allowed":false,"key":{"id":"k1","label":"Office e-key"},"reason":"fuera de lun–vie 08:00–17:30 Europe/Berlin; próxima apertura lun 08:00","until":null,"nextOpen":1773644400000}"#,
        ),
        (
            "2026-03-16T08:00:00Z", // Mon 09:00
            "en",
            r#"{"allowed":true,"key":{"id":"k1","label":"Office e-key"},"reason":"within Mon–Fri 08:00–17:30 Europe/Berlin; closes Mon 17:30","until":1773678600000,"nextOpen":null}"#,
        ),
        (
            "2026-03-16T08:00:00Z",
            "es",
            r#"{"allowed":true,"key":{"id":"k1","label":"Office e-key"},"reason":"dentro de lun–vie 08:00–17:30 Europe/Berlin; cierra lun 17:30","until":1773678600000,"nextOpen":null}"#,
        ),
    ];
    for (at, lang, expected) in table {
        assert_eq!(decide(&keys(), at, lang), expected, "{} {}", at, lang);
    }
}

#[test]
fn key_states() {
    let single = |w: &str| format!(r#"[{{"id":"a","label":"A","window":{}}}]"#, w);
    let before = decide(&single(BERLIN_OFFICE), "2026-02-20T12:00:00Z", "en");
    assert!(before.contains(r#""reason":"not valid before 2026-03-01; next opens Mon 2026-03-02 08:00""#), "{}", before);
    let after = decide(&single(BERLIN_OFFICE), "2026-07-01T12:00:00Z", "es");
    assert!(after.contains(r#""reason":"caducada después del 2026-06-30""#), "{}", after);
    let used = BERLIN_OFFICE.replace(r#""custom""#, r#""oneTime""#).replace(r#""used":false"#, r#""used":true"#);
    assert!(decide(&single(&used), "2026-03-16T08:00:00Z", "en").contains(r#""reason":"one-time key already used""#));
    let full = r#"{"kind":"ekey","access":"full","tz":"UTC"}"#;
    assert_eq!(
        decide(&single(full), "2026-03-16T08:00:00Z", "es"),
        r#"{"allowed":true,"key":{"id":"a","label":"A"},"reason":"acceso total","until":null,"nextOpen":null}"#
    );
    let invalid = decide(&single(r#"{"kind":"group","tz":"Nowhere"}"#), "2026-03-16T08:00:00Z", "en");
    assert!(invalid.contains(r#""reason":"invalid window: unknown time zone \"Nowhere\"""#), "{}", invalid);
    assert_eq!(
        decide("[]", "2026-03-16T08:00:00Z", "en"),
        r#"{"allowed":false,"key":null,"reason":"no key for this door","until":null,"nextOpen":null}"#
    );
}

#[test]
fn eval_and_occurrences_lines() {
    let eval = |at: &str| call(Op::Eval, &format!(r#"{{"window":{{"kind":"ekey","access":"full","tz":"America/New_York"}},"at":{}}}"#, at));
    assert_eq!(eval(r#""2026-03-08T07:30:00Z""#), r#"{"open":true,"local":"2026-03-08T03:30:00-04:00"}"#);
    assert_eq!(eval("1772953199999"), r#"{"open":true,"local":"2026-03-08T01:59:59.999-05:00"}"#);
    assert_eq!(
        call(Op::Eval, "not json"),
        r#"{"error":{"code":"json.invalid","field":"","message":"invalid JSON: invalid literal at byte 0"}}"#
    );
    let occ =
        call(Op::Occurrences, &format!(r#"{{"window":{},"from":"2026-03-16T00:00:00Z","to":"2026-03-18T00:00:00Z"}}"#, BERLIN_OFFICE));
    assert_eq!(occ, r#"{"occurrences":[[1773644400000,1773678600000],[1773730800000,1773765000000]]}"#);
    let next = call(Op::NextChange, &format!(r#"{{"window":{},"at":"2026-03-16T08:00:00Z"}}"#, BERLIN_OFFICE));
    assert_eq!(next, r#"{"open":true,"nextChange":1773678600000,"nextOpen":1773730800000}"#);
    assert_eq!(call(Op::Local, r#"{"tz":"Asia/Kathmandu","at":0}"#), r#"{"local":"1970-01-01T05:30:00+05:30","offset":19800}"#);
    assert_eq!(call(Op::Version, ""), format!("\"{}\"", access_window::tz::tzdata_version()));
    assert!(call(Op::Zones, "").contains(r#""Europe/Berlin""#));
}
