//! Holidays as an input to every kind of window: "not on holidays" (`closed`), "holiday hours"
//! (`holidayHours`) and the default (`ignore`), on both DST nights and across midnight.

mod common;
use access_window::api::{call, Op};
use access_window::Window;
use common::ms;

const EVERY_DAY: &str = "[true,true,true,true,true,true,true]";
const MON_FRI: &str = "[true,true,true,true,true,false,false]";

fn window(json: &str) -> Window {
    Window::from_json(json).unwrap_or_else(|e| panic!("{}: {:?}", json, e))
}

fn group(tz: &str, days: &str, times: &str, on: &str, holidays: &str) -> String {
    format!(r#"{{"kind":"group","tz":"{}","days":{},{},"onHolidays":"{}","holidays":{}}}"#, tz, days, times, on, holidays)
}

fn ekey(tz: &str, days: &str, times: &str, on: &str, holidays: &str) -> String {
    format!(
        r#"{{"kind":"ekey","access":"custom","tz":"{}","startDate":"2026-03-01","endDate":"2026-12-31","days":{},{},"used":false,"onHolidays":"{}","holidays":{}}}"#,
        tz, days, times, on, holidays
    )
}

fn scheduled(on: &str, holidays: &str, exceptions: &str) -> String {
    let open = r#"{"openWholeDay":true,"openTime":"08:00","closeTime":"18:00"}"#;
    let closed = r#"{"openWholeDay":false}"#;
    format!(
        r#"{{"kind":"scheduledOpen","tz":"Europe/Madrid","fpi":false,"week":[{o},{o},{o},{o},{o},{c},{c}],"exceptions":{},"onHolidays":"{}","holidays":{}}}"#,
        exceptions,
        on,
        holidays,
        o = open,
        c = closed
    )
}

fn alert(on: &str, holidays: &str) -> String {
    format!(
        r#"{{"kind":"alert","schedule":"custom","tz":"Europe/Madrid","startDate":"2026-12-01","endDate":null,"days":{},"allDay":false,"startTime":"09:00","endTime":"17:00","onHolidays":"{}","holidays":{}}}"#,
        MON_FRI, on, holidays
    )
}

fn spans(list: &[(&str, &str)]) -> Vec<(i64, i64)> {
    list.iter().map(|&(a, b)| (ms(a), ms(b))).collect()
}

/// `is_open` every five minutes agrees with `occurrences` over the range: the two paths must not drift.
fn assert_consistent(w: &Window, from: i64, to: i64, json: &str) {
    let occ = w.occurrences(from, to);
    let mut t = from;
    while t < to {
        let inside = occ.iter().any(|&(s, e)| s <= t && t < e);
        assert_eq!(w.is_open(t), inside, "{} at {}", json, t);
        t += 300_000;
    }
}

#[test]
fn occurrences_with_holidays_on_dst_nights_and_across_midnight() {
    let madrid_night = r#""allDay":false,"startTime":"22:00","endTime":"06:00""#;
    let sunday_29 = r#"[{"date":"2026-03-29","name":"Día de prueba"}]"#;
    // (window, from, to, expected occurrences)
    let table: Vec<(String, &str, &str, Vec<(i64, i64)>)> = vec![
        // Madrid's spring-forward night (02:00 CET -> 03:00 CEST on Sun 29 March), a night window every day.
        (
            group("Europe/Madrid", EVERY_DAY, madrid_night, "ignore", sunday_29),
            "2026-03-28T12:00:00Z",
            "2026-03-30T12:00:00Z",
            spans(&[("2026-03-28T21:00:00Z", "2026-03-29T04:00:00Z"), ("2026-03-29T20:00:00Z", "2026-03-30T04:00:00Z")]),
        ),
        // Not on holidays: the 29th loses every hour; Saturday's night stops at midnight, Sunday's
        // night starts at Monday's midnight.
        (
            group("Europe/Madrid", EVERY_DAY, madrid_night, "closed", sunday_29),
            "2026-03-28T12:00:00Z",
            "2026-03-30T12:00:00Z",
            spans(&[("2026-03-28T21:00:00Z", "2026-03-28T23:00:00Z"), ("2026-03-29T22:00:00Z", "2026-03-30T04:00:00Z")]),
        ),
        // Not on holidays with the holiday open until 04:00: Saturday's night keeps 00:00 CET-04:00 CEST,
        // three hours of wall clock but two real hours across the gap.
        (
            group("Europe/Madrid", EVERY_DAY, madrid_night, "closed", r#"[{"date":"2026-03-29","closeTime":"04:00"}]"#),
            "2026-03-28T12:00:00Z",
            "2026-03-30T12:00:00Z",
            spans(&[("2026-03-28T21:00:00Z", "2026-03-29T02:00:00Z"), ("2026-03-29T22:00:00Z", "2026-03-30T04:00:00Z")]),
        ),
        // Holiday hours 10:00-14:00 CEST replace the night hours on the 29th.
        (
            group(
                "Europe/Madrid",
                EVERY_DAY,
                madrid_night,
                "holidayHours",
                r#"[{"date":"2026-03-29","openTime":"10:00","closeTime":"14:00"}]"#,
            ),
            "2026-03-28T12:00:00Z",
            "2026-03-30T12:00:00Z",
            spans(&[
                ("2026-03-28T21:00:00Z", "2026-03-28T23:00:00Z"),
                ("2026-03-29T08:00:00Z", "2026-03-29T12:00:00Z"),
                ("2026-03-29T22:00:00Z", "2026-03-30T04:00:00Z"),
            ]),
        ),
        // Madrid's fall-back night (03:00 CEST -> 02:00 CET on Sun 25 October): the holiday is 25 hours long.
        (
            group("Europe/Madrid", EVERY_DAY, r#""allDay":true"#, "closed", r#"[{"date":"2026-10-25"}]"#),
            "2026-10-24T00:00:00Z",
            "2026-10-27T00:00:00Z",
            spans(&[("2026-10-24T00:00:00Z", "2026-10-24T22:00:00Z"), ("2026-10-25T23:00:00Z", "2026-10-27T00:00:00Z")]),
        ),
        // New York's fall-back night: 00:30-02:30 every day, the holiday "closes at 01:30" and 01:00-01:30
        // happens twice, so both passes stay open.
        (
            ekey(
                "America/New_York",
                EVERY_DAY,
                r#""allDay":false,"startTime":"00:30","endTime":"02:30""#,
                "closed",
                r#"[{"date":"2026-11-01","closeTime":"01:30"}]"#,
            ),
            "2026-11-01T04:00:00Z",
            "2026-11-01T12:00:00Z",
            spans(&[("2026-11-01T04:30:00Z", "2026-11-01T05:30:00Z"), ("2026-11-01T06:00:00Z", "2026-11-01T06:30:00Z")]),
        ),
        // New York's spring-forward night: holiday hours 01:00-04:00 hold two real hours.
        (
            ekey(
                "America/New_York",
                EVERY_DAY,
                r#""allDay":false,"startTime":"09:00","endTime":"17:00""#,
                "holidayHours",
                r#"[{"date":"2026-03-08","openTime":"01:00","closeTime":"04:00"}]"#,
            ),
            "2026-03-08T05:00:00Z",
            "2026-03-09T05:00:00Z",
            spans(&[("2026-03-08T06:00:00Z", "2026-03-08T08:00:00Z")]),
        ),
        // Holiday hours open only on the key's weekdays and dates: Sunday 8 March is not a Mon-Fri day,
        // and 28 February is before the key's startDate.
        (
            ekey(
                "America/New_York",
                MON_FRI,
                r#""allDay":true"#,
                "holidayHours",
                r#"[{"date":"2026-02-28","openTime":"10:00","closeTime":"12:00"},{"date":"2026-03-08","openTime":"10:00","closeTime":"12:00"}]"#,
            ),
            "2026-02-27T05:00:00Z",
            "2026-03-09T04:00:00Z",
            spans(&[("2026-03-02T05:00:00Z", "2026-03-07T05:00:00Z")]),
        ),
        // Company scheduled-open hours: Christmas Eve closes at 14:00, Christmas is closed, and a dated
        // exception (Boxing Day, a Saturday, open 10:00-13:00) wins over the calendar.
        (
            scheduled(
                "closed",
                r#"[{"date":"2026-12-24","name":"Nochebuena","closeTime":"14:00"},{"date":"2026-12-25","name":"Navidad"},{"date":"2026-12-26"}]"#,
                r#"[{"date":"2026-12-26","openWholeDay":true,"openTime":"10:00","closeTime":"13:00"}]"#,
            ),
            "2026-12-24T00:00:00Z",
            "2026-12-28T00:00:00Z",
            spans(&[("2026-12-24T07:00:00Z", "2026-12-24T13:00:00Z"), ("2026-12-26T09:00:00Z", "2026-12-26T12:00:00Z")]),
        ),
        // Holiday hours on scheduled-open hours: a Saturday holiday opens its own hours.
        (
            scheduled("holidayHours", r#"[{"date":"2026-12-26","openTime":"09:00","closeTime":"11:00"},{"date":"2026-12-25"}]"#, "[]"),
            "2026-12-24T00:00:00Z",
            "2026-12-28T00:00:00Z",
            spans(&[("2026-12-24T07:00:00Z", "2026-12-24T17:00:00Z"), ("2026-12-26T08:00:00Z", "2026-12-26T10:00:00Z")]),
        ),
        // An alert schedule that follows the calendar.
        (
            r#"{"kind":"alert","schedule":"any","tz":"America/New_York","onHolidays":"closed","holidays":[{"date":"2026-11-01"}]}"#.into(),
            "2026-11-01T00:00:00Z",
            "2026-11-03T00:00:00Z",
            spans(&[("2026-11-01T00:00:00Z", "2026-11-01T04:00:00Z"), ("2026-11-02T05:00:00Z", "2026-11-03T00:00:00Z")]),
        ),
        // A custom alert schedule (Mon-Fri 09:00-17:00 Madrid) around Christmas: Thu 24 closes at 14:00, Fri 25
        // is a whole holiday, Mon 28 is an ordinary day.
        (
            alert("ignore", r#"[{"date":"2026-12-24","closeTime":"14:00"},{"date":"2026-12-25"}]"#),
            "2026-12-24T00:00:00Z",
            "2026-12-29T00:00:00Z",
            spans(&[
                ("2026-12-24T08:00:00Z", "2026-12-24T16:00:00Z"),
                ("2026-12-25T08:00:00Z", "2026-12-25T16:00:00Z"),
                ("2026-12-28T08:00:00Z", "2026-12-28T16:00:00Z"),
            ]),
        ),
        (
            alert("closed", r#"[{"date":"2026-12-24","closeTime":"14:00"},{"date":"2026-12-25"}]"#),
            "2026-12-24T00:00:00Z",
            "2026-12-29T00:00:00Z",
            spans(&[("2026-12-24T08:00:00Z", "2026-12-24T13:00:00Z"), ("2026-12-28T08:00:00Z", "2026-12-28T16:00:00Z")]),
        ),
        // Holiday hours replace the alert's hours on its own weekdays only: Saturday 26 stays outside.
        (
            alert(
                "holidayHours",
                r#"[{"date":"2026-12-24","openTime":"10:00","closeTime":"12:00"},{"date":"2026-12-26","openTime":"10:00","closeTime":"12:00"}]"#,
            ),
            "2026-12-24T00:00:00Z",
            "2026-12-29T00:00:00Z",
            spans(&[
                ("2026-12-24T09:00:00Z", "2026-12-24T11:00:00Z"),
                ("2026-12-25T08:00:00Z", "2026-12-25T16:00:00Z"),
                ("2026-12-28T08:00:00Z", "2026-12-28T16:00:00Z"),
            ]),
        ),
    ];
    for (json, from, to, expected) in &table {
        let w = window(json);
        assert_eq!(w.occurrences(ms(from), ms(to)), *expected, "{}", json);
        assert_consistent(&w, ms(from), ms(to), json);
    }
}

#[test]
fn instants_one_second_around_holiday_edges() {
    let night = group(
        "Europe/Madrid",
        EVERY_DAY,
        r#""allDay":false,"startTime":"22:00","endTime":"06:00""#,
        "closed",
        r#"[{"date":"2026-03-29"}]"#,
    );
    let full = r#"{"kind":"ekey","access":"full","tz":"America/New_York","onHolidays":"closed","holidays":[{"date":"2026-03-08","openTime":"03:00","closeTime":"05:00"}]}"#;
    let used = r#"{"kind":"ekey","access":"oneTime","used":true,"tz":"UTC","days":[true,true,true,true,true,true,true],"allDay":true,"onHolidays":"holidayHours","holidays":[{"date":"2026-03-08"}]}"#;
    // (window, instant, open)
    let table = [
        (night.as_str(), "2026-03-28T22:59:59Z", true),  // Sat 23:59:59 CET
        (night.as_str(), "2026-03-28T23:00:00Z", false), // Sun 00:00 CET, the holiday
        (night.as_str(), "2026-03-29T21:59:59Z", false), // Sun 23:59:59 CEST
        (night.as_str(), "2026-03-29T22:00:00Z", true),  // Mon 00:00 CEST: Sunday's night, after the holiday
        (full, "2026-03-08T04:59:59Z", true),            // Sat 7th 23:59:59 EST
        (full, "2026-03-08T05:00:00Z", false),           // Sun 8th 00:00 EST, the holiday
        (full, "2026-03-08T07:00:00Z", true),            // 03:00 EDT, the first instant after the gap
        (full, "2026-03-08T08:59:59Z", true),            // 04:59:59 EDT
        (full, "2026-03-08T09:00:00Z", false),           // 05:00 EDT
        (full, "2026-03-09T04:00:00Z", true),            // Mon 00:00 EDT
        (used, "2026-03-08T12:00:00Z", false),           // a spent one-time key never opens, holiday or not
    ];
    for (json, at, open) in table {
        assert_eq!(window(json).is_open(ms(at)), open, "{} at {}", json, at);
    }
}

#[test]
fn without_onholidays_every_decision_is_unchanged() {
    let times = r#""allDay":false,"startTime":"22:00","endTime":"06:00""#;
    let plain = window(&format!(r#"{{"kind":"group","tz":"Europe/Madrid","days":{},{}}}"#, MON_FRI, times));
    let holidays = r#"[{"date":"2026-03-27"},{"date":"2026-03-30","closeTime":"02:00"}]"#;
    let absent = window(&format!(r#"{{"kind":"group","tz":"Europe/Madrid","days":{},{},"holidays":{}}}"#, MON_FRI, times, holidays));
    let ignore = window(&group("Europe/Madrid", MON_FRI, times, "ignore", holidays));
    let (from, to) = (ms("2026-03-25T00:00:00Z"), ms("2026-04-02T00:00:00Z"));
    for w in [&absent, &ignore] {
        assert_eq!(w.occurrences(from, to), plain.occurrences(from, to));
        let mut t = from;
        while t < to {
            assert_eq!(w.is_open(t), plain.is_open(t), "{}", t);
            assert_eq!(w.next_change(t), plain.next_change(t), "{}", t);
            t += 600_000;
        }
    }
}

#[test]
fn decisions_name_the_holiday_and_the_next_opening() {
    let key = ekey(
        "Europe/Madrid",
        MON_FRI,
        r#""allDay":false,"startTime":"08:00","endTime":"17:30""#,
        "closed",
        r#"[{"date":"2026-12-24","name":"Nochebuena","closeTime":"14:00"},{"date":"2026-12-25","name":"Navidad"}]"#,
    );
    let decide = |at: &str, lang: &str| {
        call(Op::Decide, &format!(r#"{{"keys":[{{"id":1,"label":"Oficina","window":{}}}],"at":"{}","lang":"{}"}}"#, key, at, lang))
    };
    // (instant, lang, expected answer)
    let table = [
        // Thu 24 December 10:00: open, closing at 14:00 for the half holiday.
        (
            "2026-12-24T09:00:00Z",
            "en",
            r#"{"allowed":true,"key":{"id":1,"label":"Oficina"},"reason":"within Mon–Fri 08:00–17:30 Europe/Madrid; closes Thu 14:00","until":1798117200000,"nextOpen":null}"#,
        ),
        // Fri 25 December 10:00: closed for the holiday; the next opening is Mon 28 at 08:00.
        (
            "2026-12-25T09:00:00Z",
            "en",
            r#"{"allowed":false,"key":{"id":1,"label":"Oficina"},"reason":"holiday: Navidad; next opens Mon 08:00","until":null,"nextOpen":1798441200000}"#,
        ),
        (
            "2026-12-25T09:00:00Z",
            "es",
            r#"{"allowed":false,"key":{"id":1,"label":"Oficina"},"reason":"festivo: Navidad; próxima apertura lun 08:00","until":null,"nextOpen":1798441200000}"#,
        ),
    ];
    for (at, lang, expected) in table {
        assert_eq!(decide(at, lang), expected, "{} {}", at, lang);
    }
}
