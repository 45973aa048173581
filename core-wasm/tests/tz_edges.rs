//! Offsets one second before, at and after transitions; expectations read with `zdump -v` from
//! the system's zoneinfo (2025b).

mod common;
use access_window::tz::Local;
use access_window::Zone;
use common::ms;

const H: i32 = 3600;
const M: i32 = 60;

/// (zone, transition instant, offset before, offset after), in seconds.
const TRANSITIONS: &[(&str, &str, i32, i32)] = &[
    ("America/New_York", "2026-03-08T07:00:00Z", -5 * H, -4 * H),
    ("America/New_York", "2026-11-01T06:00:00Z", -4 * H, -5 * H),
    ("America/New_York", "2040-03-11T07:00:00Z", -5 * H, -4 * H),
    ("America/New_York", "2040-11-04T06:00:00Z", -4 * H, -5 * H),
    ("Europe/London", "2026-03-29T01:00:00Z", 0, H),
    ("Europe/London", "2026-10-25T01:00:00Z", H, 0),
    ("Europe/London", "2040-03-25T01:00:00Z", 0, H),
    ("Europe/London", "2040-10-28T01:00:00Z", H, 0),
    // Dublin's standard time is summer (IST) and winter is negative DST: same offsets as London.
    ("Europe/Dublin", "2026-03-29T01:00:00Z", 0, H),
    ("Europe/Dublin", "2026-10-25T01:00:00Z", H, 0),
    ("Europe/Dublin", "2040-03-25T01:00:00Z", 0, H),
    ("Europe/Dublin", "2040-10-28T01:00:00Z", H, 0),
    ("Australia/Lord_Howe", "2026-04-04T15:00:00Z", 11 * H, 10 * H + 30 * M),
    ("Australia/Lord_Howe", "2026-10-03T15:30:00Z", 10 * H + 30 * M, 11 * H),
    ("Australia/Lord_Howe", "2040-03-31T15:00:00Z", 11 * H, 10 * H + 30 * M),
    ("Australia/Lord_Howe", "2040-10-06T15:30:00Z", 10 * H + 30 * M, 11 * H),
    ("Pacific/Chatham", "2026-04-04T14:00:00Z", 13 * H + 45 * M, 12 * H + 45 * M),
    ("Pacific/Chatham", "2026-09-26T14:00:00Z", 12 * H + 45 * M, 13 * H + 45 * M),
    ("Pacific/Chatham", "2040-03-31T14:00:00Z", 13 * H + 45 * M, 12 * H + 45 * M),
    ("Pacific/Chatham", "2040-09-29T14:00:00Z", 12 * H + 45 * M, 13 * H + 45 * M),
    ("America/St_Johns", "2026-03-08T05:30:00Z", -3 * H - 30 * M, -2 * H - 30 * M),
    ("America/St_Johns", "2026-11-01T04:30:00Z", -2 * H - 30 * M, -3 * H - 30 * M),
    ("America/St_Johns", "2040-03-11T05:30:00Z", -3 * H - 30 * M, -2 * H - 30 * M),
    ("America/St_Johns", "2040-11-04T04:30:00Z", -2 * H - 30 * M, -3 * H - 30 * M),
    // Morocco falls back to +00 for Ramadan; these are listed transitions, not a rule.
    ("Africa/Casablanca", "2026-02-15T02:00:00Z", H, 0),
    ("Africa/Casablanca", "2026-03-22T02:00:00Z", 0, H),
    ("Africa/Casablanca", "2040-09-02T02:00:00Z", H, 0),
    ("Africa/Casablanca", "2040-10-14T02:00:00Z", 0, H),
    ("America/Sao_Paulo", "2018-11-04T03:00:00Z", -3 * H, -2 * H),
    ("America/Sao_Paulo", "2019-02-17T02:00:00Z", -2 * H, -3 * H),
    ("Antarctica/Troll", "2026-03-29T01:00:00Z", 0, 2 * H),
    ("Antarctica/Troll", "2026-10-25T01:00:00Z", 2 * H, 0),
    ("Antarctica/Troll", "2040-03-25T01:00:00Z", 0, 2 * H),
    ("Antarctica/Troll", "2040-10-28T01:00:00Z", 2 * H, 0),
    ("Asia/Kathmandu", "1985-12-31T18:30:00Z", 5 * H + 30 * M, 5 * H + 45 * M),
    // Ojinaga's last listed change (2022-10-30, MDT to CST) keeps -6 although its US Central rule
    // alone would read CDT until 2022-11-06: the rule takes over only at its next transition.
    ("America/Ojinaga", "2023-03-12T08:00:00Z", -6 * H, -5 * H),
];

#[test]
fn offsets_around_transitions() {
    for &(name, at, before, after) in TRANSITIONS {
        let zone = Zone::get(name).unwrap();
        let t = ms(at);
        assert_eq!(zone.offset_at(t - 1000), before, "{} one second before {}", name, at);
        assert_eq!(zone.offset_at(t), after, "{} at {}", name, at);
        assert_eq!(zone.offset_at(t + 1000), after, "{} one second after {}", name, at);
        assert_eq!(zone.next_change(t - 1000), Some((t, after)), "{} next change before {}", name, at);
    }
}

#[test]
fn abolished_dst_and_fixed_offsets_stay_put() {
    let sao_paulo = Zone::get("America/Sao_Paulo").unwrap();
    assert_eq!(sao_paulo.next_change(ms("2019-02-17T02:00:00Z")), None);
    for at in ["2019-11-03T03:00:00Z", "2026-01-15T12:00:00Z", "2040-12-01T00:00:00Z"] {
        assert_eq!(sao_paulo.offset_at(ms(at)), -3 * H, "Sao_Paulo at {}", at);
    }
    let kathmandu = Zone::get("Asia/Kathmandu").unwrap();
    assert_eq!(kathmandu.next_change(ms("1986-01-01T00:00:00Z")), None);
    assert_eq!(kathmandu.offset_at(ms("2040-06-01T00:00:00Z")), 5 * H + 45 * M);
}

#[test]
fn rule_past_the_last_listed_transition() {
    // Every year from 2030 to 2100 in New York: second Sunday of March, first Sunday of November.
    let ny = Zone::get("America/New_York").unwrap();
    let mut t = ms("2030-01-01T00:00:00Z");
    for year in 2030..2100 {
        let (spring, off) = ny.next_change(t).unwrap();
        assert_eq!(off, -4 * H);
        let (fall, off) = ny.next_change(spring).unwrap();
        assert_eq!(off, -5 * H);
        let day = |t: i64| access_window::civil::civil_from_days((t - 5 * 3_600_000).div_euclid(86_400_000));
        let (y, m, d) = day(spring);
        assert_eq!((y, m), (year, 3));
        assert!((8..=14).contains(&d) && access_window::civil::weekday((spring - 5 * 3_600_000) / 86_400_000) == 6);
        let (y, m, d) = day(fall);
        assert_eq!((y, m), (year, 11));
        assert!((1..=7).contains(&d));
        t = fall;
    }
}

/// (zone, local date-time, expected mapping as UTC instants).
#[test]
fn local_times_in_gaps_and_folds() {
    let cases: &[(&str, &str, Local)] = &[
        ("Europe/London", "2026-07-01T12:00:00Z", Local::Unique(ms("2026-07-01T11:00:00Z"))),
        (
            "America/New_York",
            "2026-03-08T02:30:00Z",
            Local::Gap { before: ms("2026-03-08T07:30:00Z"), after: ms("2026-03-08T06:30:00Z"), transition: ms("2026-03-08T07:00:00Z") },
        ),
        (
            "America/New_York",
            "2026-11-01T01:30:00Z",
            Local::Fold { earlier: ms("2026-11-01T05:30:00Z"), later: ms("2026-11-01T06:30:00Z") },
        ),
        ("Europe/Dublin", "2026-10-25T01:30:00Z", Local::Fold { earlier: ms("2026-10-25T00:30:00Z"), later: ms("2026-10-25T01:30:00Z") }),
        (
            "Australia/Lord_Howe",
            "2026-04-05T01:45:00Z",
            Local::Fold { earlier: ms("2026-04-04T14:45:00Z"), later: ms("2026-04-04T15:15:00Z") },
        ),
        (
            "Australia/Lord_Howe",
            "2026-10-04T02:15:00Z",
            Local::Gap { before: ms("2026-10-03T15:45:00Z"), after: ms("2026-10-03T15:15:00Z"), transition: ms("2026-10-03T15:30:00Z") },
        ),
        (
            "Pacific/Chatham",
            "2026-09-27T03:00:00Z",
            Local::Gap { before: ms("2026-09-26T14:15:00Z"), after: ms("2026-09-26T13:15:00Z"), transition: ms("2026-09-26T14:00:00Z") },
        ),
        (
            "Antarctica/Troll",
            "2026-03-29T01:30:00Z",
            Local::Gap { before: ms("2026-03-29T01:30:00Z"), after: ms("2026-03-28T23:30:00Z"), transition: ms("2026-03-29T01:00:00Z") },
        ),
        (
            "Asia/Kathmandu",
            "1986-01-01T00:10:00Z",
            Local::Gap { before: ms("1985-12-31T18:40:00Z"), after: ms("1985-12-31T18:25:00Z"), transition: ms("1985-12-31T18:30:00Z") },
        ),
    ];
    for &(name, local, expected) in cases {
        // The local reading is written as if it were UTC.
        assert_eq!(Zone::get(name).unwrap().resolve(ms(local)), expected, "{} {}", name, local);
    }
    assert_eq!(cases[1].2.compatible(), ms("2026-03-08T07:30:00Z"));
    assert_eq!(cases[2].2.compatible(), ms("2026-11-01T05:30:00Z"));
}

#[test]
fn database_is_complete() {
    let names = access_window::tz::zone_names();
    assert!(access_window::tz::tzdata_version() >= "2025b");
    assert!(names.len() >= 590, "{} names", names.len());
    for name in ["UTC", "Etc/GMT+5", "US/Eastern", "Asia/Calcutta", "America/Argentina/Buenos_Aires", "Europe/Kyiv"] {
        assert!(Zone::get(name).is_some(), "{}", name);
    }
    // Every name loads.
    for (name, _) in &names {
        let zone = Zone::get(name).unwrap();
        zone.offset_at(0);
    }
    assert!(Zone::get("Europe/berlin").is_none());
}
