//! Every error code, each produced by an input that has exactly that problem.

use access_window::api::{call, call_number, Op};
use access_window::{Window, CODES};
use std::collections::BTreeSet;

const DAYS: &str = r#""days":[true,true,true,true,true,false,false]"#;

fn ekey(fields: &str) -> String {
    format!(r#"{{"kind":"ekey","access":"custom","tz":"Europe/Berlin","startDate":"2026-03-01","endDate":null,{},"allDay":false,"startTime":"08:00","endTime":"17:30",{}}}"#, DAYS, fields)
        .replace(",}", "}")
}

fn scheduled(row: &str, extra: &str) -> String {
    let ok = r#"{"openWholeDay":true,"openTime":"08:00","closeTime":"18:00"}"#;
    format!(
        r#"{{"kind":"scheduledOpen","tz":"UTC","fpi":false,"firstEntryAt":null,"week":[{},{o},{o},{o},{o},{o},{o}]{}}}"#,
        row,
        extra,
        o = ok
    )
}

/// (window JSON, expected code, expected field)
fn window_cases() -> Vec<(String, &'static str, &'static str)> {
    let replace = |from: &str, to: &str| ekey("").replace(from, to);
    vec![
        ("{".into(), "json.invalid", ""),
        ("[]".into(), "window.invalid", ""),
        (replace(r#""kind":"ekey","#, ""), "kind.missing", "kind"),
        (replace(r#""kind":"ekey""#, r#""kind":"door""#), "kind.invalid", "kind"),
        (replace(r#""tz":"Europe/Berlin","#, ""), "tz.missing", "tz"),
        (replace("Europe/Berlin", "Europe/Berlinn"), "tz.unknown", "tz"),
        (replace(r#""access":"custom","#, ""), "access.missing", "access"),
        (replace(r#""access":"custom""#, r#""access":"some""#), "access.invalid", "access"),
        (r#"{"kind":"alert","tz":"UTC"}"#.into(), "schedule.missing", "schedule"),
        (r#"{"kind":"alert","schedule":"often","tz":"UTC"}"#.into(), "schedule.invalid", "schedule"),
        (replace(r#""access":"custom""#, r#""access":"oneTime""#), "used.missing", "used"),
        (replace(r#""access":"custom""#, r#""access":"oneTime","used":"no""#), "used.invalid", "used"),
        (replace("2026-03-01", "2026-02-30"), "startDate.invalid", "startDate"),
        (replace(r#""endDate":null"#, r#""endDate":"30/06/2026""#), "endDate.invalid", "endDate"),
        (replace(r#""endDate":null"#, r#""endDate":"2026-02-28""#), "endDate.beforeStart", "endDate"),
        (replace(&format!("{},", DAYS), ""), "days.missing", "days"),
        (replace("true,false,false]", "true,false]"), "days.invalid", "days"),
        (replace("[true,true,true,true,true,false,false]", "[false,false,false,false,false,false,false]"), "days.none", "days"),
        (replace(r#""allDay":false,"#, ""), "allDay.missing", "allDay"),
        (replace(r#""allDay":false"#, r#""allDay":0"#), "allDay.invalid", "allDay"),
        (replace(r#""startTime":"08:00","#, ""), "startTime.missing", "startTime"),
        (replace(r#""08:00""#, r#""8:00""#), "startTime.invalid", "startTime"),
        (replace(r#","endTime":"17:30""#, ""), "endTime.missing", "endTime"),
        (replace(r#""17:30""#, r#""24:00""#), "endTime.invalid", "endTime"),
        (replace(r#""17:30""#, r#""08:00""#), "endTime.equalsStart", "endTime"),
        (scheduled(r#"{"openWholeDay":false}"#, "").replace(r#""fpi":false,"#, ""), "fpi.missing", "fpi"),
        (scheduled(r#"{"openWholeDay":false}"#, "").replace(r#""fpi":false"#, r#""fpi":"yes""#), "fpi.invalid", "fpi"),
        (
            scheduled(r#"{"openWholeDay":false}"#, "").replace(r#""firstEntryAt":null"#, r#""firstEntryAt":"yesterday""#),
            "firstEntryAt.invalid",
            "firstEntryAt",
        ),
        (r#"{"kind":"scheduledOpen","tz":"UTC","fpi":false}"#.into(), "week.missing", "week"),
        (r#"{"kind":"scheduledOpen","tz":"UTC","fpi":false,"week":[]}"#.into(), "week.invalid", "week"),
        (scheduled(r#"{"openWholeDay":false}"#, r#","exceptions":{}"#), "exceptions.invalid", "exceptions"),
        (scheduled(r#"{"openWholeDay":false}"#, r#","exceptions":[{"openWholeDay":false}]"#), "date.missing", "exceptions[0].date"),
        (
            scheduled(r#"{"openWholeDay":false}"#, r#","exceptions":[{"date":"2026-12-32","openWholeDay":false}]"#),
            "date.invalid",
            "exceptions[0].date",
        ),
        (
            scheduled(
                r#"{"openWholeDay":false}"#,
                r#","exceptions":[{"date":"2026-12-25","openWholeDay":false},{"date":"2026-12-25","openWholeDay":false}]"#,
            ),
            "date.duplicate",
            "exceptions[1].date",
        ),
        (scheduled(r#"{"openTime":"08:00"}"#, ""), "openWholeDay.missing", "week[0].openWholeDay"),
        (scheduled(r#"{"openWholeDay":1}"#, ""), "openWholeDay.invalid", "week[0].openWholeDay"),
        (scheduled(r#"{"openWholeDay":true,"closeTime":"18:00"}"#, ""), "openTime.missing", "week[0].openTime"),
        (scheduled(r#"{"openWholeDay":true,"openTime":"8","closeTime":"18:00"}"#, ""), "openTime.invalid", "week[0].openTime"),
        (scheduled(r#"{"openWholeDay":true,"openTime":"08:00","closeTime":""}"#, ""), "closeTime.missing", "week[0].closeTime"),
        (scheduled(r#"{"openWholeDay":true,"openTime":"08:00","closeTime":"18:60"}"#, ""), "closeTime.invalid", "week[0].closeTime"),
        (scheduled(r#"{"openWholeDay":true,"openTime":"18:00","closeTime":"08:00"}"#, ""), "closeTime.notAfterOpen", "week[0].closeTime"),
        (ekey(r#""onHolidays":"never""#), "onHolidays.invalid", "onHolidays"),
        (ekey(r#""onHolidays":"closed","holidays":{}"#), "holidays.invalid", "holidays"),
        (ekey(r#""holidays":["2026-12-25"]"#), "holidays.invalid", "holidays[0]"),
        (ekey(r#""holidays":[{"date":"2026-12-25","name":7}]"#), "name.invalid", "holidays[0].name"),
        (ekey(r#""holidays":[{"date":"2026-12-25"},{"name":"Boxing Day"}]"#), "date.missing", "holidays[1].date"),
        (ekey(r#""holidays":[{"date":"25/12/2026"}]"#), "date.invalid", "holidays[0].date"),
        (ekey(r#""holidays":[{"date":"2026-12-25"},{"date":"2026-12-25"}]"#), "date.duplicate", "holidays[1].date"),
        (ekey(r#""holidays":[{"date":"2026-12-24","closeTime":"14"}]"#), "closeTime.invalid", "holidays[0].closeTime"),
        (
            ekey(r#""holidays":[{"date":"2026-12-24","openTime":"14:00","closeTime":"09:00"}]"#),
            "closeTime.notAfterOpen",
            "holidays[0].closeTime",
        ),
    ]
}

/// (operation, request JSON, expected code, expected field)
fn request_cases() -> Vec<(u32, String, &'static str, &'static str)> {
    let w = ekey("");
    vec![
        (Op::Eval as u32, format!(r#"{{"window":{}}}"#, w), "at.missing", "at"),
        (Op::Eval as u32, format!(r#"{{"window":{},"at":1.5}}"#, w), "at.invalid", "at"),
        (Op::Occurrences as u32, format!(r#"{{"window":{},"to":0}}"#, w), "from.missing", "from"),
        (Op::Occurrences as u32, format!(r#"{{"window":{},"from":"2026-01-01","to":0}}"#, w), "from.invalid", "from"),
        (Op::Occurrences as u32, format!(r#"{{"window":{},"from":0}}"#, w), "to.missing", "to"),
        (Op::Occurrences as u32, format!(r#"{{"window":{},"from":0,"to":true}}"#, w), "to.invalid", "to"),
        (Op::Occurrences as u32, format!(r#"{{"window":{},"from":10,"to":0}}"#, w), "to.beforeFrom", "to"),
        (Op::Occurrences as u32, format!(r#"{{"window":{},"from":0,"to":8.64e14}}"#, w), "to.rangeTooLong", "to"),
        (Op::Decide as u32, r#"{"keys":{},"at":0}"#.into(), "keys.invalid", "keys"),
        (Op::Decide as u32, r#"{"keys":[],"at":0,"lang":"fr"}"#.into(), "lang.invalid", "lang"),
        (99, "{}".into(), "op.unknown", ""),
    ]
}

#[test]
fn every_window_error() {
    for (json, code, field) in window_cases() {
        let errors = Window::from_json(&json).expect_err(&json);
        assert_eq!(errors.len(), 1, "{} -> {:?}", json, errors);
        assert_eq!((errors[0].code(), errors[0].field()), (code, field), "{}", json);
        assert!(!errors[0].message().is_empty());
    }
}

#[test]
fn every_request_error() {
    for (op, json, code, field) in request_cases() {
        let out = call_number(op, &json);
        let expected = format!(r#"{{"error":{{"code":"{}","field":"{}","#, code, field);
        assert!(out.starts_with(&expected), "{} -> {}", json, out);
    }
}

#[test]
fn every_code_is_tested() {
    let tested: BTreeSet<&str> = window_cases().iter().map(|c| c.1).chain(request_cases().iter().map(|c| c.2)).collect();
    let all: BTreeSet<&str> = CODES.iter().copied().collect();
    assert_eq!(tested, all);
}

#[test]
fn messages_name_the_values() {
    let out = call(Op::Validate, &ekey("").replace(r#""endDate":null"#, r#""endDate":"2026-02-28""#).replace("17:30", "25:00"));
    assert_eq!(
        out,
        r#"{"errors":[{"code":"endDate.beforeStart","field":"endDate","message":"endDate 2026-02-28 is before startDate 2026-03-01"},{"code":"endTime.invalid","field":"endTime","message":"endTime must be a time HH:mm from 00:00 to 23:59, got \"25:00\""}]}"#
    );
    assert_eq!(call(Op::Validate, &ekey("")), r#"{"errors":[]}"#);
}
