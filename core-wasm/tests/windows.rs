//! Window semantics (docs/ARCHITECTURE.md §5.2) at DST edges, overnight, and at date-range edges.

mod common;
use access_window::Window;
use common::ms;

const H: i64 = 3_600_000;
const EVERY_DAY: &str = "[true,true,true,true,true,true,true]";

fn group(tz: &str, days: &str, times: &str) -> Window {
    let json = format!(r#"{{"kind":"group","tz":"{}","days":{},{}}}"#, tz, days, times);
    Window::from_json(&json).unwrap_or_else(|e| panic!("{}: {:?}", json, e))
}

fn hours(w: &Window, from: &str, to: &str) -> Vec<(i64, i64)> {
    w.occurrences(ms(from), ms(to))
}

#[test]
fn overnight_window_across_both_dst_changes() {
    let w = group("America/New_York", EVERY_DAY, r#""allDay":false,"startTime":"22:00","endTime":"06:00""#);
    // Spring: Sat 22:00 EST to Sun 06:00 EDT is 7 hours.
    assert_eq!(hours(&w, "2026-03-07T12:00:00Z", "2026-03-08T12:00:00Z"), vec![(ms("2026-03-08T03:00:00Z"), ms("2026-03-08T10:00:00Z"))]);
    // Fall: Sat 22:00 EDT to Sun 06:00 EST is 9 hours.
    assert_eq!(hours(&w, "2026-10-31T12:00:00Z", "2026-11-01T12:00:00Z"), vec![(ms("2026-11-01T02:00:00Z"), ms("2026-11-01T11:00:00Z"))]);
    // (instant, open) one second around the edges and the transitions inside the night.
    let table = [
        ("2026-03-08T02:59:59Z", false),
        ("2026-03-08T03:00:00Z", true),
        ("2026-03-08T06:59:59Z", true), // 01:59:59 EST
        ("2026-03-08T07:00:00Z", true), // 03:00 EDT
        ("2026-03-08T09:59:59Z", true),
        ("2026-03-08T10:00:00Z", false), // 06:00 EDT
        ("2026-11-01T01:59:59Z", false),
        ("2026-11-01T02:00:00Z", true),
        ("2026-11-01T05:59:59Z", true), // 01:59:59 EDT
        ("2026-11-01T06:00:00Z", true), // 01:00 EST
        ("2026-11-01T10:59:59Z", true),
        ("2026-11-01T11:00:00Z", false),
    ];
    for (at, open) in table {
        assert_eq!(w.is_open(ms(at)), open, "{}", at);
    }
}

#[test]
fn gap_and_fold_windows() {
    // 02:00-03:00 does not exist on the spring-forward night.
    let gap = group("America/New_York", EVERY_DAY, r#""allDay":false,"startTime":"02:00","endTime":"03:00""#);
    assert_eq!(hours(&gap, "2026-03-08T05:00:00Z", "2026-03-09T05:00:00Z"), vec![]);
    assert!(!gap.is_open(ms("2026-03-08T06:59:59Z")));
    assert!(!gap.is_open(ms("2026-03-08T07:00:00Z")));
    // 01:00-02:00 happens twice on the fall-back night: two hours in a row.
    let fold = group("America/New_York", EVERY_DAY, r#""allDay":false,"startTime":"01:00","endTime":"02:00""#);
    assert_eq!(
        hours(&fold, "2026-11-01T04:00:00Z", "2026-11-02T04:00:00Z"),
        vec![(ms("2026-11-01T05:00:00Z"), ms("2026-11-01T07:00:00Z"))]
    );
    // Chatham's gap is 02:45-03:45; a 03:00-04:00 window keeps only 03:45-04:00.
    let chatham = group("Pacific/Chatham", EVERY_DAY, r#""allDay":false,"startTime":"03:00","endTime":"04:00""#);
    assert_eq!(
        hours(&chatham, "2026-09-26T10:00:00Z", "2026-09-26T16:00:00Z"),
        vec![(ms("2026-09-26T14:00:00Z"), ms("2026-09-26T14:15:00Z"))]
    );
}

#[test]
fn all_day_lengths_on_transition_days() {
    let sunday = "[false,false,false,false,false,false,true]";
    // (zone, day start, day end) in UTC for an all-day Sunday window.
    let table = [
        ("America/New_York", "2026-03-08T05:00:00Z", "2026-03-09T04:00:00Z"), // 23 h
        ("America/New_York", "2026-11-01T04:00:00Z", "2026-11-02T05:00:00Z"), // 25 h
        ("Europe/Dublin", "2026-10-24T23:00:00Z", "2026-10-26T00:00:00Z"),    // 25 h (IST to GMT)
        ("Australia/Lord_Howe", "2026-04-04T13:00:00Z", "2026-04-05T13:30:00Z"), // 24.5 h
        ("Antarctica/Troll", "2026-03-29T00:00:00Z", "2026-03-29T22:00:00Z"), // 22 h
        ("America/Sao_Paulo", "2026-11-01T03:00:00Z", "2026-11-02T03:00:00Z"), // no DST any more
    ];
    for (tz, start, end) in table {
        let w = group(tz, sunday, r#""allDay":true"#);
        let occ = w.occurrences(ms(start) - 30 * H, ms(end) + 30 * H);
        assert_eq!(occ, vec![(ms(start), ms(end))], "{}", tz);
    }
}

#[test]
fn date_range_edges() {
    let w = Window::from_json(
        r#"{"kind":"ekey","access":"custom","tz":"Europe/Berlin","startDate":"2026-03-02","endDate":"2026-03-06",
            "days":[true,true,true,true,true,true,true],"allDay":false,"startTime":"22:00","endTime":"06:00","used":false}"#,
    )
    .unwrap();
    let table = [
        ("2026-03-02T04:59:59Z", false), // tail of 03-01's night: before startDate
        ("2026-03-02T20:59:59Z", false),
        ("2026-03-02T21:00:00Z", true), // 22:00 on startDate
        ("2026-03-06T21:00:00Z", true), // 22:00 on endDate
        ("2026-03-07T04:59:59Z", true), // the last night's tail passes endDate
        ("2026-03-07T05:00:00Z", false),
        ("2026-03-07T21:00:00Z", false),
    ];
    for (at, open) in table {
        assert_eq!(w.is_open(ms(at)), open, "{}", at);
    }
    assert_eq!(w.occurrences(ms("2026-01-01T00:00:00Z"), ms("2027-01-01T00:00:00Z")).len(), 5);
    assert_eq!(w.next_change(ms("2026-01-01T00:00:00Z")), Some(ms("2026-03-02T21:00:00Z")));
    assert_eq!(w.next_change(ms("2026-03-07T05:00:00Z")), None);
}

#[test]
fn kinds() {
    let t = ms("2026-05-05T12:00:00Z");
    let open = |json: &str| Window::from_json(json).unwrap().is_open(t);
    assert!(open(r#"{"kind":"ekey","access":"full","tz":"UTC"}"#));
    assert!(open(r#"{"kind":"alert","schedule":"any","tz":"UTC"}"#));
    let one_time = r#"{"kind":"ekey","access":"oneTime","tz":"UTC","startDate":"2026-05-01","endDate":null,"days":[true,true,true,true,true,true,true],"allDay":true,"used":USED}"#;
    assert!(open(&one_time.replace("USED", "false")));
    assert!(!open(&one_time.replace("USED", "true")));
    assert!(open(
        r#"{"kind":"alert","schedule":"custom","tz":"UTC","startDate":null,"endDate":null,"days":[false,true,false,false,false,false,false],"allDay":true,"startTime":null,"endTime":null}"#
    ));
    assert!(!open(
        r#"{"kind":"alert","schedule":"custom","tz":"UTC","startDate":null,"endDate":null,"days":[true,false,false,false,false,false,false],"allDay":true}"#
    ));
}

fn scheduled(first_entry: &str) -> Window {
    let row = r#"{"openWholeDay":true,"openTime":"08:00","closeTime":"18:00"}"#;
    let closed = r#"{"openWholeDay":false,"openTime":"","closeTime":""}"#;
    let json = format!(
        r#"{{"kind":"scheduledOpen","tz":"Europe/Madrid","fpi":{},"firstEntryAt":{},"week":[{r},{r},{r},{r},{r},{c},{{"openWholeDay":true,"openTime":"","closeTime":""}}],
            "exceptions":[{{"date":"2026-12-25","openWholeDay":false,"openTime":"","closeTime":""}},{{"date":"2026-12-26","openWholeDay":true,"openTime":"10:00","closeTime":"12:00"}}]}}"#,
        first_entry != "none",
        if first_entry == "none" { "null".to_string() } else { first_entry.to_string() },
        r = row,
        c = closed
    );
    Window::from_json(&json).unwrap_or_else(|e| panic!("{:?}", e))
}

#[test]
fn scheduled_open() {
    let w = scheduled("none");
    let table = [
        ("2026-12-21T06:59:59Z", false), // Mon 07:59:59 Madrid
        ("2026-12-21T07:00:00Z", true),
        ("2026-12-21T16:59:59Z", true),
        ("2026-12-21T17:00:00Z", false),
        ("2026-12-25T10:00:00Z", false), // Fri, closed by exception
        ("2026-12-26T08:59:59Z", false), // Sat exception 10:00-12:00
        ("2026-12-26T09:00:00Z", true),
        ("2026-12-27T22:59:59Z", true),  // Sun whole day
        ("2026-12-19T12:00:00Z", false), // a normal Saturday: closed
    ];
    for (at, open) in table {
        assert_eq!(w.is_open(ms(at)), open, "{}", at);
    }
    assert_eq!(
        w.occurrences(ms("2026-12-27T00:00:00Z"), ms("2026-12-29T00:00:00Z")),
        vec![(ms("2026-12-27T00:00:00Z"), ms("2026-12-27T23:00:00Z")), (ms("2026-12-28T07:00:00Z"), ms("2026-12-28T17:00:00Z")),]
    );
}

#[test]
fn first_person_in() {
    // No entry yet: stays locked.
    let row = r#"{"openWholeDay":true,"openTime":"08:00","closeTime":"18:00"}"#;
    let json = r#"{"kind":"scheduledOpen","tz":"UTC","fpi":true,"firstEntryAt":null,"week":[R,R,R,R,R,R,R]}"#.replace('R', row);
    let none = Window::from_json(&json).unwrap();
    assert!(!none.is_open(ms("2026-12-21T12:00:00Z")));
    // First entry at 09:15 Madrid on Monday: open from then until 18:00, not on Tuesday.
    let w = scheduled(r#""2026-12-21T08:15:00Z""#);
    let table = [
        ("2026-12-21T08:14:59Z", false),
        ("2026-12-21T08:15:00Z", true),
        ("2026-12-21T16:59:59Z", true),
        ("2026-12-21T17:00:00Z", false),
        ("2026-12-22T08:00:00Z", false),
    ];
    for (at, open) in table {
        assert_eq!(w.is_open(ms(at)), open, "{}", at);
    }
    assert_eq!(
        w.occurrences(ms("2026-12-20T00:00:00Z"), ms("2026-12-24T00:00:00Z")),
        vec![(ms("2026-12-21T08:15:00Z"), ms("2026-12-21T17:00:00Z"))]
    );
    // An entry before opening time does not release the day.
    let early = scheduled("1797836400000"); // 2026-12-21T07:00:00Z = 08:00 Madrid: exactly at opening
    assert!(early.is_open(ms("2026-12-21T12:00:00Z")));
    let too_early = scheduled("1797836399000"); // 07:59:59 Madrid
    assert!(!too_early.is_open(ms("2026-12-21T12:00:00Z")));
}
