//! The time-zone engine over the embedded IANA database.
//!
//! Each zone is its explicit offset changes followed by a POSIX-style rule that extends it past
//! the last one, as zic's "slim" output provides them (encoding: `scripts/gen-tzdata.mjs`).

mod data;

pub use data::{tzdata_version, zone_names};

use crate::civil::{days_from_civil, month_len, weekday, DAY_MS};

/// A time zone: UTC offsets over time.
///
/// ```
/// use access_window::Zone;
/// let ny = Zone::get("America/New_York").unwrap();
/// assert_eq!(ny.offset_at(1_772_953_200_000), -4 * 3600); // 2026-03-08T07:00:00Z, EDT begins
/// assert_eq!(ny.offset_at(1_772_953_199_999), -5 * 3600);
/// ```
#[derive(Clone, Debug)]
pub struct Zone {
    name: String,
    initial: i32,
    /// Instants (ms) at which the offset changes, ascending, with the offset from then on.
    changes: Vec<(i64, i32)>,
    /// `index[b]` counts the changes before `b << BUCKET_SHIFT` ms, for `b` from 1970 on: a lookup
    /// starts there and steps over the one or two changes of its bucket instead of bisecting.
    index: Vec<u32>,
    rule: Rule,
}

/// Buckets of 2^35 ms (about 398 days).
const BUCKET_SHIFT: u32 = 35;

/// What holds after the last explicit change.
#[derive(Clone, Copy, Debug)]
enum Rule {
    /// The last offset forever.
    Last,
    Fixed(i32),
    Dst {
        std: i32,
        dst: i32,
        start: RuleDay,
        start_time: i32,
        end: RuleDay,
        end_time: i32,
    },
}

#[derive(Clone, Copy, Debug)]
enum RuleDay {
    /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (5 = last) of month `m`.
    MonthWeek(u32, u32, u32),
    /// `Jn`: day 1..=365, February 29 never counted.
    Julian(u32),
    /// `n`: day 0..=365, February 29 counted.
    ZeroBased(u32),
}

/// How a local date-time maps to instants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Local {
    /// Exactly one instant has this local time.
    Unique(i64),
    /// The clocks went back: the local time happened twice, `earlier` then `later`.
    Fold { earlier: i64, later: i64 },
    /// The clocks went forward: the local time never happened. `before` reads it with the offset in
    /// force before the gap (an instant after the gap), `after` with the offset after it (an instant
    /// before the gap); `transition` is the instant of the jump.
    Gap { before: i64, after: i64, transition: i64 },
}

impl Local {
    /// The instant most software picks: the earlier pass of a fold, and for a gap the instant
    /// reached by moving forward by the gap's length (02:30 in a 02:00–03:00 gap is 03:30).
    pub fn compatible(self) -> i64 {
        match self {
            Local::Unique(t) => t,
            Local::Fold { earlier, .. } => earlier,
            Local::Gap { before, .. } => before,
        }
    }
}

impl Zone {
    /// Looks up a zone or a backward-compatible link by its exact IANA name.
    pub fn get(name: &str) -> Option<Zone> {
        data::load(name)
    }

    /// The name the zone was looked up by.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// UTC offset in seconds at the instant `t` (epoch milliseconds).
    pub fn offset_at(&self, t: i64) -> i32 {
        let n = self.changes_until(t);
        if self.changes.is_empty() {
            self.rule_offset(t, i64::MIN, self.initial)
        } else if n == 0 {
            self.initial
        } else if n < self.changes.len() {
            self.changes[n - 1].1
        } else {
            let (at, off) = self.changes[n - 1];
            self.rule_offset(t, at, off)
        }
    }

    /// How many changes happen at or before `t`.
    #[inline]
    fn changes_until(&self, t: i64) -> usize {
        match self.index.get((t >> BUCKET_SHIFT) as usize) {
            Some(&start) if t >= 0 => {
                let mut n = start as usize;
                while n < self.changes.len() && self.changes[n].0 <= t {
                    n += 1;
                }
                n
            }
            _ => self.changes.partition_point(|&(at, _)| at <= t),
        }
    }

    /// Builds `index` over the listed changes (call after they are final).
    fn build_index(&mut self) {
        let end = self.changes.last().map_or(0, |&(at, _)| at);
        let buckets = if end > 0 { (end >> BUCKET_SHIFT) as usize + 1 } else { 0 };
        self.index = (0..buckets).map(|b| self.changes.partition_point(|&(at, _)| at < (b as i64) << BUCKET_SHIFT) as u32).collect();
    }

    /// The local date-time at `t`, as milliseconds since 1970-01-01T00:00 local.
    pub fn to_local(&self, t: i64) -> i64 {
        t + self.offset_at(t) as i64 * 1000
    }

    /// The first instant after `t` at which the offset changes, with the new offset.
    ///
    /// ```
    /// use access_window::Zone;
    /// let london = Zone::get("Europe/London").unwrap();
    /// // From 2040-06-01 the next change is 2040-10-28T01:00:00Z, back to GMT.
    /// assert_eq!(london.next_change(2_222_121_600_000), Some((2_234_998_800_000, 0)));
    /// ```
    pub fn next_change(&self, t: i64) -> Option<(i64, i32)> {
        let n = self.changes_until(t);
        if n < self.changes.len() {
            return Some(self.changes[n]);
        }
        let (std, dst) = match self.rule {
            Rule::Dst { std, dst, .. } if std != dst => (std, dst),
            _ => return None,
        };
        let year = year_of(t + std as i64 * 1000);
        let mut best: Option<(i64, i32)> = None;
        for y in year - 1..=year + 1 {
            let (s, e) = self.rule_bounds(y);
            for &(at, off) in &[(s, dst), (e, std)] {
                if at > t && best.map_or(true, |(b, _)| at < b) && self.offset_at(at - 1) != off {
                    best = Some((at, off));
                }
            }
        }
        best
    }

    /// Maps a local date-time (ms since 1970-01-01T00:00 local) to instants, reporting gaps and folds.
    ///
    /// ```
    /// use access_window::{Zone, tz::Local};
    /// let ny = Zone::get("America/New_York").unwrap();
    /// // 2026-11-01 01:30 happened twice in New York.
    /// let local = 1_793_496_600_000; // 2026-11-01T01:30 as a local reading
    /// assert_eq!(ny.resolve(local), Local::Fold { earlier: 1_793_511_000_000, later: 1_793_514_600_000 });
    /// ```
    pub fn resolve(&self, local: i64) -> Local {
        // Offsets never change twice within two days, so the offsets a day either side cover it.
        let a = self.offset_at(local - DAY_MS) as i64 * 1000;
        let b = self.offset_at(local + DAY_MS) as i64 * 1000;
        let ta = local - a;
        let tb = local - b;
        let va = self.to_local(ta) == local;
        let vb = self.to_local(tb) == local;
        match (va, vb) {
            (true, true) if ta != tb => Local::Fold { earlier: ta.min(tb), later: ta.max(tb) },
            (true, _) => Local::Unique(ta),
            (_, true) => Local::Unique(tb),
            _ => {
                let transition = self.next_change(tb - 1).map_or(ta, |(at, _)| at);
                Local::Gap { before: ta, after: tb, transition }
            }
        }
    }

    /// The offset after the last explicit change `(last_at, last)`: that of the latest rule
    /// transition between it and `t`, or the last change's own while there is none yet (as tzcode
    /// reads slim TZif files, where the rule may disagree just after the last change).
    /// Appends the rule's transitions up to the end of `until_year`, so that offsets in the years
    /// that matter come from one binary search; later instants still use [`Zone::rule_offset`].
    fn expand_rule(&mut self, until_year: i64) {
        let (std, dst) = match self.rule {
            Rule::Dst { std, dst, .. } => (std, dst),
            _ => return,
        };
        let (mut last_at, mut current) = self.changes.last().copied().unwrap_or((i64::MIN, self.initial));
        let first_year = if last_at == i64::MIN { 1970 } else { year_of(last_at + std as i64 * 1000) - 1 };
        for year in first_year..=until_year {
            let (s, e) = self.rule_bounds(year);
            // End before start on a tie, so that a rule keeping DST all year stays in DST.
            let pair = if s < e { [(s, dst), (e, std)] } else { [(e, std), (s, dst)] };
            for &(at, off) in &pair {
                if at > last_at && off != current {
                    self.changes.push((at, off));
                    last_at = at;
                    current = off;
                }
            }
        }
    }

    fn rule_offset(&self, t: i64, last_at: i64, last: i32) -> i32 {
        match self.rule {
            Rule::Last => last,
            Rule::Fixed(off) => off,
            Rule::Dst { std, dst, .. } => {
                let latest = |year: i64| {
                    let (s, e) = self.rule_bounds(year);
                    // On a tie (a rule that keeps DST all year) the start wins.
                    match (s <= t, e <= t) {
                        (true, true) if s >= e => Some((s, dst)),
                        (_, true) => Some((e, std)),
                        (true, false) => Some((s, dst)),
                        (false, false) => None,
                    }
                };
                let year = year_of(t + std as i64 * 1000);
                match latest(year).or_else(|| latest(year - 1)) {
                    Some((at, off)) if at > last_at => off,
                    _ => last,
                }
            }
        }
    }

    /// Instants at which DST starts and ends in `year` under the rule.
    fn rule_bounds(&self, year: i64) -> (i64, i64) {
        match self.rule {
            Rule::Dst { std, dst, start, start_time, end, end_time } => (
                (rule_day(start, year) * 86_400 + (start_time - std) as i64) * 1000,
                (rule_day(end, year) * 86_400 + (end_time - dst) as i64) * 1000,
            ),
            _ => (i64::MAX, i64::MAX),
        }
    }
}

fn year_of(local: i64) -> i64 {
    crate::civil::civil_from_days(local.div_euclid(DAY_MS)).0
}

/// Day number of a rule's date in `year`.
fn rule_day(day: RuleDay, year: i64) -> i64 {
    match day {
        RuleDay::MonthWeek(m, w, d) => {
            let first = days_from_civil(year, m, 1);
            // `weekday` counts from Monday; POSIX counts from Sunday.
            let first_dow = (weekday(first) + 1) % 7;
            let mut day = 1 + (d as i64 - first_dow as i64).rem_euclid(7) + (w as i64 - 1) * 7;
            while day > month_len(year, m) as i64 {
                day -= 7;
            }
            first + day - 1
        }
        RuleDay::Julian(n) => {
            let jan1 = days_from_civil(year, 1, 1);
            let leap_shift = (crate::civil::is_leap(year) && n >= 60) as i64;
            jan1 + n as i64 - 1 + leap_shift
        }
        RuleDay::ZeroBased(n) => days_from_civil(year, 1, 1) + n as i64,
    }
}
