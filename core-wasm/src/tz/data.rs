//! Reads the embedded database written by `scripts/gen-tzdata.mjs`.

use super::{Rule, RuleDay, Zone};

static TZDATA: &[u8] = include_bytes!("tzdata.bin");

/// Rule transitions are listed explicitly up to this year (about 70 entries for a zone with DST).
const EXPAND_UNTIL_YEAR: i64 = 2060;

struct Reader<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Reader<'a> {
    fn u8(&mut self) -> u8 {
        self.i += 1;
        self.b[self.i - 1]
    }
    fn u16(&mut self) -> u16 {
        self.i += 2;
        u16::from_le_bytes([self.b[self.i - 2], self.b[self.i - 1]])
    }
    fn u32(&mut self) -> u32 {
        let v = u32::from_le_bytes([self.b[self.i], self.b[self.i + 1], self.b[self.i + 2], self.b[self.i + 3]]);
        self.i += 4;
        v
    }
    fn varint(&mut self) -> u64 {
        let (mut v, mut shift) = (0u64, 0);
        loop {
            let c = self.u8();
            v |= ((c & 0x7f) as u64) << shift;
            if c < 0x80 {
                return v;
            }
            shift += 7;
        }
    }
    fn zigzag(&mut self) -> i64 {
        let v = self.varint();
        (v >> 1) as i64 ^ -((v & 1) as i64)
    }
    fn str(&mut self) -> &'a str {
        let n = self.u8() as usize;
        self.i += n;
        std::str::from_utf8(&self.b[self.i - n..self.i]).unwrap_or("")
    }
}

/// Position just after the header; the data is ours and checked by the tests.
fn header() -> Reader<'static> {
    let mut r = Reader { b: TZDATA, i: 5 };
    r.str();
    r
}

/// The IANA release the embedded data comes from, e.g. `2025b`.
///
/// ```
/// assert!(access_window::tz::tzdata_version() >= "2025b");
/// ```
pub fn tzdata_version() -> &'static str {
    let mut r = Reader { b: TZDATA, i: 5 };
    r.str()
}

/// Every zone name (canonical zones and backward-compatible links) with whether it is a link,
/// sorted.
pub fn zone_names() -> Vec<(&'static str, bool)> {
    let mut r = header();
    let n = r.u16();
    (0..n)
        .map(|_| {
            let name = r.str();
            r.u16();
            (name, r.u8() == 1)
        })
        .collect()
}

pub(super) fn load(name: &str) -> Option<Zone> {
    let mut r = header();
    let n = r.u16();
    let mut index = None;
    for _ in 0..n {
        let candidate = r.str();
        let zone = r.u16();
        r.u8();
        if candidate == name {
            index = Some(zone as usize);
        }
    }
    let index = index?;
    let zones = r.u16() as usize;
    let table = r.i;
    r.i = table + index * 4;
    r.i = table + zones * 4 + r.u32() as usize;

    let offsets: Vec<i32> = (0..r.varint()).map(|_| r.zigzag() as i32).collect();
    let initial = offsets[r.u8() as usize];
    let mut at = 0i64;
    let changes = (0..r.varint())
        .map(|_| {
            at += r.zigzag();
            (at * 1000, offsets[r.u8() as usize])
        })
        .collect();
    let rule = match r.u8() {
        0 => Rule::Last,
        1 => Rule::Fixed(r.zigzag() as i32),
        _ => {
            let std = r.zigzag() as i32;
            let dst = r.zigzag() as i32;
            let (start, start_time) = rule_day(&mut r);
            let (end, end_time) = rule_day(&mut r);
            Rule::Dst { std, dst, start, start_time, end, end_time }
        }
    };
    let mut zone = Zone { name: name.to_string(), initial, changes, index: Vec::new(), rule };
    zone.expand_rule(EXPAND_UNTIL_YEAR);
    zone.build_index();
    Some(zone)
}

fn rule_day(r: &mut Reader) -> (RuleDay, i32) {
    let day = match r.u8() {
        0 => RuleDay::MonthWeek(r.u8() as u32, r.u8() as u32, r.u8() as u32),
        1 => RuleDay::Julian(r.u16() as u32),
        _ => RuleDay::ZeroBased(r.u16() as u32),
    };
    (day, r.zigzag() as i32)
}
