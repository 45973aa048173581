//! Holidays as an input to a window: which local dates are holidays, and how the window treats them.

use crate::window::DayRule;

/// What the window's `onHolidays` said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HolidayRule {
    /// Holidays change nothing (the default, and every window written before holidays existed).
    Ignore,
    /// "Not on holidays": on a holiday the window keeps only its hours that fall inside the
    /// holiday's open hours (none for a whole-day holiday).
    Closed,
    /// "Holiday hours": on a holiday the holiday's open hours replace the window's hours, on the
    /// dates and weekdays the window is valid.
    Hours,
}

/// One holiday: a local date and the hours still open that day (`Closed` for the whole day).
#[derive(Clone, Debug)]
pub(crate) struct Holiday {
    pub date: i64,
    pub name: String,
    pub open: DayRule,
}

#[derive(Clone, Debug)]
pub(crate) struct Holidays {
    pub rule: HolidayRule,
    /// Sorted by date, dates unique.
    pub list: Vec<Holiday>,
}

impl Holidays {
    /// The holiday on local day `day`, when the window follows holidays.
    pub fn on(&self, day: i64) -> Option<&Holiday> {
        if self.rule == HolidayRule::Ignore {
            return None;
        }
        self.list.binary_search_by_key(&day, |h| h.date).ok().map(|i| &self.list[i])
    }

    pub fn active(&self) -> bool {
        self.rule != HolidayRule::Ignore && !self.list.is_empty()
    }
}

impl DayRule {
    /// Whether `tod` (ms after local midnight) is inside the rule's hours.
    pub fn contains(self, tod: i64) -> bool {
        match self {
            DayRule::Open(o, c) => o <= tod && tod < c,
            DayRule::Closed => false,
        }
    }

    /// The hours open under both rules.
    pub fn intersect(self, other: DayRule) -> DayRule {
        match (self, other) {
            (DayRule::Open(a, b), DayRule::Open(c, d)) if a.max(c) < b.min(d) => DayRule::Open(a.max(c), b.min(d)),
            _ => DayRule::Closed,
        }
    }
}

/// Sorts and merges half-open intervals that touch or overlap.
pub(crate) fn merge(mut list: Vec<(i64, i64)>) -> Vec<(i64, i64)> {
    list.sort_unstable();
    let mut merged: Vec<(i64, i64)> = Vec::with_capacity(list.len());
    for (s, e) in list {
        match merged.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => merged.push((s, e)),
        }
    }
    merged
}

/// `a` without `b`; both merged.
pub(crate) fn subtract(a: &[(i64, i64)], b: &[(i64, i64)]) -> Vec<(i64, i64)> {
    let (mut j, mut out) = (0, Vec::new());
    for &(s, e) in a {
        while j < b.len() && b[j].1 <= s {
            j += 1;
        }
        let mut start = s;
        let mut k = j;
        while k < b.len() && b[k].0 < e {
            if b[k].0 > start {
                out.push((start, b[k].0));
            }
            start = start.max(b[k].1);
            k += 1;
        }
        if start < e {
            out.push((start, e));
        }
    }
    out
}

/// The instants in both `a` and `b`; both merged.
pub(crate) fn intersect(a: &[(i64, i64)], b: &[(i64, i64)]) -> Vec<(i64, i64)> {
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < a.len() && j < b.len() {
        let (s, e) = (a[i].0.max(b[j].0), a[i].1.min(b[j].1));
        if s < e {
            out.push((s, e));
        }
        if a[i].1 < b[j].1 {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_algebra() {
        let a = vec![(0, 10), (20, 30)];
        assert_eq!(subtract(&a, &[(5, 25)]), vec![(0, 5), (25, 30)]);
        assert_eq!(subtract(&a, &[(2, 3), (4, 6)]), vec![(0, 2), (3, 4), (6, 10), (20, 30)]);
        assert_eq!(subtract(&a, &[(-5, 40)]), vec![]);
        assert_eq!(intersect(&a, &[(5, 25)]), vec![(5, 10), (20, 25)]);
        assert_eq!(merge(vec![(20, 30), (0, 10), (10, 12)]), vec![(0, 12), (20, 30)]);
    }
}
