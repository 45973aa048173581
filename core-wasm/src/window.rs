//! Access windows: parsing with validation, evaluation at an instant, and occurrences.

use crate::civil::{format_date, format_minutes, parse_date, parse_time, split_day, weekday, DAY_MS};
use crate::error::Error;
use crate::holidays::{self, Holiday, HolidayRule, Holidays};
use crate::instant::parse_instant;
use crate::json::{self, Value};
use crate::tz::Zone;

const MINUTE_MS: i64 = 60_000;
/// The longest range `occurrences` accepts, in days (about 27 years).
pub const MAX_RANGE_DAYS: i64 = 10_000;
/// How far `next_change` looks ahead.
const HORIZON_MS: i64 = 5 * 366 * DAY_MS;

/// A validated access window, ready to evaluate (see docs/ARCHITECTURE.md §5 for the JSON).
///
/// ```
/// use access_window::Window;
/// let w = Window::from_json(r#"{"kind":"group","tz":"Europe/Berlin","days":[true,true,true,true,true,false,false],
///     "allDay":false,"startTime":"22:00","endTime":"06:00"}"#).unwrap();
/// assert!(w.is_open(1_767_391_200_000));  // Fri 2026-01-02 23:00 Berlin
/// assert!(w.is_open(1_767_412_800_000));  // Sat 05:00 Berlin: Friday's night goes on
/// assert!(!w.is_open(1_767_416_400_000)); // Sat 06:00 Berlin: the end is excluded
/// ```
#[derive(Clone, Debug)]
pub struct Window {
    kind: Kind,
    zone: Zone,
    schedule: Schedule,
    holidays: Holidays,
}

/// What the JSON `kind` (and `access`/`schedule`) said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    EKeyFull,
    EKeyCustom,
    EKeyOneTime { used: bool },
    Group,
    AlertAny,
    AlertCustom,
    ScheduledOpen,
}

#[derive(Clone, Debug)]
enum Schedule {
    Always,
    Never,
    Weekly(Weekly),
    Scheduled(Scheduled),
}

/// Occurrences that start on allowed local dates; times in ms after local midnight.
#[derive(Clone, Debug)]
pub(crate) struct Weekly {
    pub days: [bool; 7],
    pub start_date: Option<i64>,
    pub end_date: Option<i64>,
    /// `None` for all day, else `(start, end)`; `end < start` runs overnight.
    pub times: Option<(i64, i64)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DayRule {
    Closed,
    /// Open during `[open, close)` ms after local midnight (`[0, DAY_MS)` for the whole day).
    Open(i64, i64),
}

#[derive(Clone, Debug)]
pub(crate) struct Scheduled {
    pub week: [DayRule; 7],
    /// Sorted by date.
    pub exceptions: Vec<(i64, DayRule)>,
    pub fpi: bool,
    pub first_entry: Option<i64>,
}

impl Weekly {
    fn allowed(&self, day: i64) -> bool {
        self.days[weekday(day)] && self.start_date.map_or(true, |s| day >= s) && self.end_date.map_or(true, |e| day <= e)
    }

    /// Local `[start, end)` of the occurrence starting on `day`, if there is one.
    fn occurrence(&self, day: i64) -> Option<(i64, i64)> {
        if !self.allowed(day) {
            return None;
        }
        let base = day * DAY_MS;
        Some(match self.times {
            None => (base, base + DAY_MS),
            Some((s, e)) if s < e => (base + s, base + e),
            Some((s, e)) => (base + s, base + DAY_MS + e),
        })
    }
}

impl Scheduled {
    /// The rule of local day `day`: its dated exception, else its holiday as the window treats
    /// holidays, else its weekday's row.
    fn rule(&self, day: i64, hol: &Holidays) -> DayRule {
        match self.exceptions.binary_search_by_key(&day, |&(d, _)| d) {
            Ok(i) => self.exceptions[i].1,
            Err(_) => {
                let week = self.week[weekday(day)];
                match hol.on(day) {
                    Some(h) if hol.rule == HolidayRule::Hours => h.open,
                    Some(h) => week.intersect(h.open),
                    None => week,
                }
            }
        }
    }

    /// Whether first-person-in has released local day `day`, and from which instant.
    fn released_from(&self, day: i64, zone: &Zone, hol: &Holidays) -> Option<i64> {
        let fe = self.first_entry?;
        let local = zone.to_local(fe);
        match self.rule(day, hol) {
            DayRule::Open(open, _) if local.div_euclid(DAY_MS) == day && local.rem_euclid(DAY_MS) >= open => Some(fe),
            _ => None,
        }
    }
}

impl Window {
    /// Parses and validates a window from JSON text; every problem found is reported.
    pub fn from_json(text: &str) -> Result<Window, Vec<Error>> {
        match json::parse(text) {
            Ok(v) => Window::from_value(&v),
            Err(e) => Err(vec![Error::new("json.invalid", "", format!("invalid JSON: {}", e))]),
        }
    }

    /// Parses and validates a window from a JSON value; every problem found is reported.
    pub fn from_value(v: &Value) -> Result<Window, Vec<Error>> {
        let mut p = Fields { v, errors: Vec::new(), prefix: String::new() };
        if !matches!(v, Value::Obj(_)) {
            return Err(vec![Error::new("window.invalid", "", format!("a window must be a JSON object, got {}", v.describe()))]);
        }
        let zone = p.zone();
        let kind = match p.str_field("kind", "kind.missing", "kind.invalid") {
            Some("ekey") => match p.str_field("access", "access.missing", "access.invalid") {
                Some("full") => Some(Kind::EKeyFull),
                Some("custom") => Some(Kind::EKeyCustom),
                Some("oneTime") => p.bool_field("used", "used.missing", "used.invalid").map(|used| Kind::EKeyOneTime { used }),
                Some(other) => p.fail(
                    "access.invalid",
                    "access",
                    format!("access must be \"full\", \"custom\" or \"oneTime\", got {}", json::quote(other)),
                ),
                None => None,
            },
            Some("group") => Some(Kind::Group),
            Some("alert") => match p.str_field("schedule", "schedule.missing", "schedule.invalid") {
                Some("any") => Some(Kind::AlertAny),
                Some("custom") => Some(Kind::AlertCustom),
                Some(other) => {
                    p.fail("schedule.invalid", "schedule", format!("schedule must be \"any\" or \"custom\", got {}", json::quote(other)))
                }
                None => None,
            },
            Some("scheduledOpen") => Some(Kind::ScheduledOpen),
            Some(other) => p.fail(
                "kind.invalid",
                "kind",
                format!("kind must be \"ekey\", \"group\", \"alert\" or \"scheduledOpen\", got {}", json::quote(other)),
            ),
            None => None,
        };
        let holidays = p.holidays();
        let schedule = match kind {
            Some(Kind::EKeyFull) | Some(Kind::AlertAny) => Some(Schedule::Always),
            Some(Kind::EKeyCustom) | Some(Kind::EKeyOneTime { .. }) | Some(Kind::AlertCustom) => p.weekly(true).map(Schedule::Weekly),
            Some(Kind::Group) => p.weekly(false).map(Schedule::Weekly),
            Some(Kind::ScheduledOpen) => p.scheduled().map(Schedule::Scheduled),
            None => None,
        };
        match (kind, zone, schedule, holidays) {
            (Some(kind), Some(zone), Some(schedule), Some(holidays)) if p.errors.is_empty() => {
                let schedule = if kind == (Kind::EKeyOneTime { used: true }) { Schedule::Never } else { schedule };
                Ok(Window { kind, zone, schedule, holidays })
            }
            _ => Err(p.errors),
        }
    }

    pub fn kind(&self) -> Kind {
        self.kind
    }

    pub fn zone(&self) -> &Zone {
        &self.zone
    }

    pub(crate) fn weekly(&self) -> Option<&Weekly> {
        match &self.schedule {
            Schedule::Weekly(w) => Some(w),
            _ => None,
        }
    }

    /// How the window treats holidays.
    pub fn holiday_rule(&self) -> HolidayRule {
        self.holidays.rule
    }

    /// The name of the holiday on the local date of `t`, when the window follows holidays.
    pub fn holiday_at(&self, t: i64) -> Option<&str> {
        self.holidays.on(self.zone.to_local(t).div_euclid(DAY_MS)).map(|h| h.name.as_str())
    }

    /// Whether the window's own schedule is valid on local day `day` (what "holiday hours" need).
    fn valid_on(&self, day: i64) -> bool {
        match &self.schedule {
            Schedule::Always => true,
            Schedule::Weekly(w) => w.allowed(day),
            Schedule::Never | Schedule::Scheduled(_) => false,
        }
    }

    /// Whether the instant `t` (epoch ms) is inside the window.
    pub fn is_open(&self, t: i64) -> bool {
        let base = self.schedule_open(t);
        if !self.holidays.active() || matches!(self.schedule, Schedule::Scheduled(_)) {
            return base;
        }
        let (day, tod) = split_day(self.zone.to_local(t));
        match self.holidays.on(day) {
            None => base,
            Some(h) if self.holidays.rule == HolidayRule::Hours => h.open.contains(tod) && self.valid_on(day),
            Some(h) => base && h.open.contains(tod),
        }
    }

    /// [`Window::is_open`] before holidays, except for scheduled-open hours, whose day rule has them.
    fn schedule_open(&self, t: i64) -> bool {
        match &self.schedule {
            Schedule::Always => true,
            Schedule::Never => false,
            Schedule::Weekly(w) => {
                let (day, tod) = split_day(self.zone.to_local(t));
                match w.times {
                    None => w.allowed(day),
                    Some((s, e)) if s < e => s <= tod && tod < e && w.allowed(day),
                    Some((s, e)) => (tod >= s && w.allowed(day)) || (tod < e && w.allowed(day - 1)),
                }
            }
            Schedule::Scheduled(s) => {
                let (day, tod) = split_day(self.zone.to_local(t));
                s.rule(day, &self.holidays).contains(tod)
                    && (!s.fpi || s.released_from(day, &self.zone, &self.holidays).map_or(false, |fe| fe <= t))
            }
        }
    }

    /// The instants in `[from, to)` inside the window, as merged half-open UTC intervals (epoch ms),
    /// clipped to the range.
    ///
    /// ```
    /// use access_window::Window;
    /// let w = Window::from_json(r#"{"kind":"group","tz":"America/New_York","days":[true,true,true,true,true,true,true],
    ///     "allDay":false,"startTime":"01:30","endTime":"02:00"}"#).unwrap();
    /// // 2026-11-01: 01:30-02:00 happens twice, an hour apart.
    /// let from = 1_793_505_600_000; // 2026-11-01T04:00:00Z
    /// assert_eq!(w.occurrences(from, from + 4 * 3_600_000), vec![
    ///     (1_793_511_000_000, 1_793_512_800_000),  // 01:30-02:00 EDT
    ///     (1_793_514_600_000, 1_793_516_400_000),  // 01:30-02:00 EST
    /// ]);
    /// ```
    pub fn occurrences(&self, from: i64, to: i64) -> Vec<(i64, i64)> {
        if from >= to {
            return Vec::new();
        }
        let mut out = Vec::new();
        match &self.schedule {
            Schedule::Always => out.push((from, to)),
            Schedule::Never => {}
            Schedule::Weekly(w) => self.map_local(from, to, &mut out, |day| w.occurrence(day)),
            Schedule::Scheduled(s) => self.map_local(from, to, &mut out, |day| match s.rule(day, &self.holidays) {
                DayRule::Open(open, close) if !s.fpi || s.released_from(day, &self.zone, &self.holidays).is_some() => {
                    Some((day * DAY_MS + open, day * DAY_MS + close))
                }
                _ => None,
            }),
        }
        if let Schedule::Scheduled(Scheduled { fpi: true, first_entry: Some(fe), .. }) = &self.schedule {
            out = out.into_iter().filter(|&(_, e)| e > *fe).map(|(s, e)| (s.max(*fe), e)).collect();
        }
        let merged = holidays::merge(out);
        if !self.holidays.active() || matches!(self.schedule, Schedule::Scheduled(_)) {
            return merged;
        }
        self.apply_holidays(merged, from, to)
    }

    /// Occurrences with the holidays in `[from, to)` applied: a holiday's local date loses the
    /// window's hours and gets back those inside the holiday's open hours ("not on holidays") or the
    /// holiday's open hours on the dates the window is valid ("holiday hours").
    fn apply_holidays(&self, base: Vec<(i64, i64)>, from: i64, to: i64) -> Vec<(i64, i64)> {
        let local = |f: &dyn Fn(&Holiday, i64) -> Option<(i64, i64)>| {
            let mut out = Vec::new();
            self.map_local(from, to, &mut out, |day| self.holidays.on(day).and_then(|h| f(h, day)));
            holidays::merge(out)
        };
        let hours = |h: &Holiday, day: i64| match h.open {
            DayRule::Open(o, c) => Some((day * DAY_MS + o, day * DAY_MS + c)),
            DayRule::Closed => None,
        };
        let whole_days = local(&|_, day| Some((day * DAY_MS, (day + 1) * DAY_MS)));
        let kept = match self.holidays.rule {
            HolidayRule::Hours => local(&|h, day| if self.valid_on(day) { hours(h, day) } else { None }),
            _ => holidays::intersect(&base, &local(&hours)),
        };
        let mut out = holidays::subtract(&base, &whole_days);
        out.extend(kept);
        holidays::merge(out)
    }

    /// Maps local occurrences (from `occ`, by start day) to UTC over `[from, to)`, one stretch of
    /// constant offset at a time, so gaps drop local times and folds repeat them.
    fn map_local(&self, from: i64, to: i64, out: &mut Vec<(i64, i64)>, occ: impl Fn(i64) -> Option<(i64, i64)>) {
        let mut t = from;
        while t < to {
            let off = self.zone.offset_at(t) as i64 * 1000;
            let end = match self.zone.next_change(t) {
                Some((at, _)) if at < to => at,
                _ => to,
            };
            let (lo, hi) = (t + off, end + off);
            // An occurrence starting the day before can run overnight into this stretch.
            for day in lo.div_euclid(DAY_MS) - 1..=(hi - 1).div_euclid(DAY_MS) {
                if let Some((a, b)) = occ(day) {
                    let (a, b) = (a.max(lo), b.min(hi));
                    if a < b {
                        out.push((a - off, b - off));
                    }
                }
            }
            t = end;
        }
    }

    /// The first instant after `t` at which [`Window::is_open`] changes, within about five years.
    ///
    /// ```
    /// use access_window::Window;
    /// let w = Window::from_json(r#"{"kind":"group","tz":"UTC","days":[true,true,true,true,true,true,true],
    ///     "allDay":false,"startTime":"08:00","endTime":"17:00"}"#).unwrap();
    /// assert_eq!(w.next_change(0), Some(8 * 3_600_000));
    /// assert_eq!(w.next_change(8 * 3_600_000), Some(17 * 3_600_000));
    /// ```
    pub fn next_change(&self, t: i64) -> Option<i64> {
        let open = self.is_open(t);
        let mut from = t;
        if let (false, Some(w)) = (open, self.weekly()) {
            let today = self.zone.to_local(t).div_euclid(DAY_MS);
            if w.end_date.map_or(false, |e| today > e + 1) {
                return None;
            }
            if let Some(start) = w.start_date {
                // Skip ahead to two days before the first possible start (offsets are under a day).
                from = from.max((start - 2) * DAY_MS);
            }
        }
        while from < t + HORIZON_MS {
            let to = from + 32 * DAY_MS;
            let occ = self.occurrences(from, to);
            if open {
                match occ.first() {
                    Some(&(s, e)) if s == from && e == to => {}
                    Some(&(s, e)) if s == from => return Some(e),
                    _ => return Some(from),
                }
            } else if let Some(&(s, _)) = occ.iter().find(|&&(s, _)| s > t) {
                return Some(s);
            }
            from = to;
        }
        None
    }

    /// The next instant after `t` at which the window opens (after the current opening ends, when open).
    pub fn next_open(&self, t: i64) -> Option<i64> {
        let change = self.next_change(t)?;
        if self.is_open(t) {
            self.next_change(change)
        } else {
            Some(change)
        }
    }
}

/// Field reader that collects every validation error.
struct Fields<'a> {
    v: &'a Value,
    errors: Vec<Error>,
    prefix: String,
}

impl<'a> Fields<'a> {
    fn fail<T>(&mut self, code: &'static str, name: &str, message: String) -> Option<T> {
        self.errors.push(Error::new(code, format!("{}{}", self.prefix, name), message));
        None
    }

    fn str_field(&mut self, name: &str, missing: &'static str, invalid: &'static str) -> Option<&'a str> {
        match self.v.get(name) {
            None | Some(Value::Null) => self.fail(missing, name, format!("{} is required", name)),
            Some(Value::Str(s)) => Some(s.as_str()),
            Some(other) => self.fail(invalid, name, format!("{} must be a string, got {}", name, other.describe())),
        }
    }

    fn bool_field(&mut self, name: &str, missing: &'static str, invalid: &'static str) -> Option<bool> {
        match self.v.get(name) {
            None | Some(Value::Null) => self.fail(missing, name, format!("{} is required", name)),
            Some(Value::Bool(b)) => Some(*b),
            Some(other) => self.fail(invalid, name, format!("{} must be true or false, got {}", name, other.describe())),
        }
    }

    fn zone(&mut self) -> Option<Zone> {
        let name = self.str_field("tz", "tz.missing", "tz.unknown")?;
        match Zone::get(name) {
            Some(z) => Some(z),
            None => self.fail("tz.unknown", "tz", format!("unknown time zone {}", json::quote(name))),
        }
    }

    /// An optional date: absent or null is `Ok(None)`.
    fn date(&mut self, name: &str, code: &'static str) -> Result<Option<i64>, ()> {
        match self.v.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Str(s)) if parse_date(s).is_some() => Ok(parse_date(s)),
            Some(other) => {
                let m = format!("{} must be a date YYYY-MM-DD, got {}", name, other.describe());
                self.fail::<()>(code, name, m);
                Err(())
            }
        }
    }

    /// A time `HH:mm`; absent, null or empty is `missing`, and `when` says when it is required.
    fn time(&mut self, name: &str, missing: &'static str, invalid: &'static str, when: &str) -> Option<i64> {
        match self.v.get(name) {
            None | Some(Value::Null) => self.fail(missing, name, format!("{} is required {}", name, when)),
            Some(Value::Str(s)) if s.is_empty() => self.fail(missing, name, format!("{} is required {}", name, when)),
            Some(Value::Str(s)) => match parse_time(s) {
                Some(m) => Some(m),
                None => self.fail(invalid, name, format!("{} must be a time HH:mm from 00:00 to 23:59, got {}", name, json::quote(s))),
            },
            Some(other) => self.fail(invalid, name, format!("{} must be a time HH:mm, got {}", name, other.describe())),
        }
    }

    fn weekly(&mut self, dated: bool) -> Option<Weekly> {
        let (start_date, end_date) = if dated {
            let s = self.date("startDate", "startDate.invalid");
            let e = self.date("endDate", "endDate.invalid");
            if let (Ok(Some(s)), Ok(Some(e))) = (s, e) {
                if e < s {
                    let m = format!("endDate {} is before startDate {}", format_date(e), format_date(s));
                    self.fail::<()>("endDate.beforeStart", "endDate", m);
                }
            }
            (s.unwrap_or(None), e.unwrap_or(None))
        } else {
            (None, None)
        };
        let days = self.days();
        let times = match self.bool_field("allDay", "allDay.missing", "allDay.invalid") {
            Some(true) => Some(None),
            Some(false) => {
                let s = self.time("startTime", "startTime.missing", "startTime.invalid", "unless allDay is true");
                let e = self.time("endTime", "endTime.missing", "endTime.invalid", "unless allDay is true");
                match (s, e) {
                    (Some(s), Some(e)) if s == e => self.fail(
                        "endTime.equalsStart",
                        "endTime",
                        format!("endTime {} equals startTime: the window would be empty", format_minutes(e)),
                    ),
                    (Some(s), Some(e)) => Some(Some((s * MINUTE_MS, e * MINUTE_MS))),
                    _ => None,
                }
            }
            None => None,
        };
        Some(Weekly { days: days?, start_date, end_date, times: times? })
    }

    fn days(&mut self) -> Option<[bool; 7]> {
        match self.v.get("days") {
            None | Some(Value::Null) => self.fail("days.missing", "days", "days is required".into()),
            Some(Value::Arr(a)) if a.len() == 7 && a.iter().all(|d| matches!(d, Value::Bool(_))) => {
                let mut days = [false; 7];
                for (i, d) in a.iter().enumerate() {
                    days[i] = *d == Value::Bool(true);
                }
                if days.iter().any(|&d| d) {
                    Some(days)
                } else {
                    self.fail("days.none", "days", "no weekday selected".into())
                }
            }
            Some(other) => self.fail("days.invalid", "days", format!("days must be 7 booleans, Monday first, got {}", other.describe())),
        }
    }

    fn scheduled(&mut self) -> Option<Scheduled> {
        let fpi = self.bool_field("fpi", "fpi.missing", "fpi.invalid");
        let first_entry = match self.v.get("firstEntryAt") {
            None | Some(Value::Null) => Some(None),
            Some(v) => match parse_instant(v, "firstEntryAt") {
                Ok(t) => Some(Some(t)),
                Err(e) => {
                    self.errors.push(e);
                    None
                }
            },
        };
        let week = match self.v.get("week") {
            None | Some(Value::Null) => self.fail("week.missing", "week", "week is required".into()),
            Some(Value::Arr(rows)) if rows.len() == 7 => {
                let mut week = [DayRule::Closed; 7];
                let mut ok = true;
                for (i, row) in rows.iter().enumerate() {
                    match self.day_rule(row, format!("week[{}].", i)) {
                        Some(r) => week[i] = r,
                        None => ok = false,
                    }
                }
                if ok {
                    Some(week)
                } else {
                    None
                }
            }
            Some(other) => self.fail("week.invalid", "week", format!("week must be 7 rows, Monday first, got {}", other.describe())),
        };
        let exceptions = match self.v.get("exceptions") {
            None | Some(Value::Null) => Some(Vec::new()),
            Some(Value::Arr(rows)) => {
                let mut list: Vec<(i64, DayRule)> = Vec::new();
                let mut ok = true;
                for (i, row) in rows.iter().enumerate() {
                    let prefix = format!("exceptions[{}].", i);
                    let date = match row.get("date") {
                        None | Some(Value::Null) => {
                            self.errors.push(Error::new("date.missing", format!("{}date", prefix), "date is required"));
                            None
                        }
                        Some(Value::Str(s)) if parse_date(s).is_some() => parse_date(s),
                        Some(other) => {
                            let m = format!("date must be a date YYYY-MM-DD, got {}", other.describe());
                            self.errors.push(Error::new("date.invalid", format!("{}date", prefix), m));
                            None
                        }
                    };
                    if let Some(d) = date {
                        if list.iter().any(|&(e, _)| e == d) {
                            let m = format!("more than one exception for {}", format_date(d));
                            self.errors.push(Error::new("date.duplicate", format!("{}date", prefix), m));
                        }
                    }
                    match (date, self.day_rule(row, prefix)) {
                        (Some(d), Some(r)) => list.push((d, r)),
                        _ => ok = false,
                    }
                }
                list.sort_by_key(|&(d, _)| d);
                if ok {
                    Some(list)
                } else {
                    None
                }
            }
            Some(other) => self.fail("exceptions.invalid", "exceptions", format!("exceptions must be an array, got {}", other.describe())),
        };
        Some(Scheduled { week: week?, exceptions: exceptions?, fpi: fpi?, first_entry: first_entry? })
    }

    /// `onHolidays` and `holidays`: both optional, so a window without them ignores holidays.
    fn holidays(&mut self) -> Option<Holidays> {
        let rule = match self.v.get("onHolidays") {
            None | Some(Value::Null) => Some(HolidayRule::Ignore),
            Some(Value::Str(s)) if s == "ignore" => Some(HolidayRule::Ignore),
            Some(Value::Str(s)) if s == "closed" => Some(HolidayRule::Closed),
            Some(Value::Str(s)) if s == "holidayHours" => Some(HolidayRule::Hours),
            Some(other) => self.fail(
                "onHolidays.invalid",
                "onHolidays",
                format!("onHolidays must be \"ignore\", \"closed\" or \"holidayHours\", got {}", other.describe()),
            ),
        };
        let rows = match self.v.get("holidays") {
            None | Some(Value::Null) => &[][..],
            Some(Value::Arr(rows)) => &rows[..],
            Some(other) => {
                return self.fail("holidays.invalid", "holidays", format!("holidays must be an array, got {}", other.describe()))
            }
        };
        let mut list: Vec<Holiday> = Vec::with_capacity(rows.len());
        let mut ok = true;
        for (i, row) in rows.iter().enumerate() {
            match self.holiday(row, format!("holidays[{}].", i)) {
                Some(h) if list.iter().any(|o| o.date == h.date) => {
                    let m = format!("more than one holiday on {}", format_date(h.date));
                    self.errors.push(Error::new("date.duplicate", format!("holidays[{}].date", i), m));
                    ok = false;
                }
                Some(h) => list.push(h),
                None => ok = false,
            }
        }
        list.sort_by_key(|h| h.date);
        match (rule, ok) {
            (Some(rule), true) => Some(Holidays { rule, list }),
            _ => None,
        }
    }

    /// `{date, name?, openTime?, closeTime?}`: without times the whole day is a holiday; with only
    /// `closeTime` ("closes at 14:00") it is open from midnight, with only `openTime` until midnight.
    fn holiday(&mut self, row: &'a Value, prefix: String) -> Option<Holiday> {
        if !matches!(row, Value::Obj(_)) {
            let field = prefix.trim_end_matches('.').to_string();
            self.errors.push(Error::new("holidays.invalid", field, format!("a holiday must be an object, got {}", row.describe())));
            return None;
        }
        let mut f = Fields { v: row, errors: Vec::new(), prefix };
        let date = match f.date("date", "date.invalid") {
            Ok(None) => f.fail("date.missing", "date", "date is required".into()),
            Ok(d) => d,
            Err(()) => None,
        };
        let name = match row.get("name") {
            None | Some(Value::Null) => Some(String::new()),
            Some(Value::Str(s)) => Some(s.clone()),
            Some(other) => f.fail("name.invalid", "name", format!("name must be a string, got {}", other.describe())),
        };
        let empty = |v: Option<&Value>| matches!(v, None | Some(Value::Null)) || v == Some(&Value::Str(String::new()));
        let (no_open, no_close) = (empty(row.get("openTime")), empty(row.get("closeTime")));
        let open = if no_open { Some(0) } else { f.time("openTime", "openTime.missing", "openTime.invalid", "") };
        let close = if no_close { Some(24 * 60) } else { f.time("closeTime", "closeTime.missing", "closeTime.invalid", "") };
        let open = match (open, close) {
            _ if no_open && no_close => Some(DayRule::Closed),
            (Some(o), Some(c)) if c <= o => f.fail(
                "closeTime.notAfterOpen",
                "closeTime",
                format!("closeTime {} must be after openTime {}", format_minutes(c), format_minutes(o)),
            ),
            (Some(o), Some(c)) => Some(DayRule::Open(o * MINUTE_MS, c * MINUTE_MS)),
            _ => None,
        };
        self.errors.append(&mut f.errors);
        Some(Holiday { date: date?, name: name?, open: open? })
    }

    fn day_rule(&mut self, row: &'a Value, prefix: String) -> Option<DayRule> {
        if !matches!(row, Value::Obj(_)) {
            let name = prefix.trim_end_matches('.').to_string();
            let (code, field) = if name.starts_with("week") { ("week.invalid", name) } else { ("exceptions.invalid", name) };
            self.errors.push(Error::new(code, field, format!("a day row must be an object, got {}", row.describe())));
            return None;
        }
        let mut f = Fields { v: row, errors: Vec::new(), prefix };
        let rule = match f.bool_field("openWholeDay", "openWholeDay.missing", "openWholeDay.invalid") {
            Some(false) => Some(DayRule::Closed),
            Some(true) => {
                let empty = |v: Option<&Value>| matches!(v, None | Some(Value::Null)) || v == Some(&Value::Str(String::new()));
                match (empty(row.get("openTime")), empty(row.get("closeTime"))) {
                    (true, true) => Some(DayRule::Open(0, DAY_MS)),
                    _ => {
                        let o = f.time("openTime", "openTime.missing", "openTime.invalid", "when closeTime is set");
                        let c = f.time("closeTime", "closeTime.missing", "closeTime.invalid", "when openTime is set");
                        match (o, c) {
                            (Some(o), Some(c)) if c <= o => f.fail(
                                "closeTime.notAfterOpen",
                                "closeTime",
                                format!("closeTime {} must be after openTime {}", format_minutes(c), format_minutes(o)),
                            ),
                            (Some(o), Some(c)) => Some(DayRule::Open(o * MINUTE_MS, c * MINUTE_MS)),
                            _ => None,
                        }
                    }
                }
            }
            None => None,
        };
        self.errors.append(&mut f.errors);
        rule
    }
}
