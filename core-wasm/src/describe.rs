//! Human-readable schedules and reasons, in English and Spanish.

use crate::civil::{format_date, format_minutes, weekday, DAY_MS};
use crate::window::{Kind, Window};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    En,
    Es,
}

impl Lang {
    /// `"en"` or `"es"`.
    pub fn parse(s: &str) -> Option<Lang> {
        match s {
            "en" => Some(Lang::En),
            "es" => Some(Lang::Es),
            _ => None,
        }
    }

    fn pick(self, en: &'static str, es: &'static str) -> &'static str {
        match self {
            Lang::En => en,
            Lang::Es => es,
        }
    }
}

const DAYS_EN: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const DAYS_ES: [&str; 7] = ["lun", "mar", "mié", "jue", "vie", "sáb", "dom"];

fn day_name(i: usize, lang: Lang) -> &'static str {
    match lang {
        Lang::En => DAYS_EN[i],
        Lang::Es => DAYS_ES[i],
    }
}

/// Weekdays as runs, Monday first: `Mon–Fri`, `Mon, Wed, Sat–Sun`, or `every day`.
///
/// ```
/// use access_window::describe::{days_text, Lang};
/// assert_eq!(days_text(&[true, true, true, true, true, false, false], Lang::En), "Mon–Fri");
/// assert_eq!(days_text(&[true, false, true, false, false, true, true], Lang::Es), "lun, mié, sáb, dom");
/// ```
pub fn days_text(days: &[bool; 7], lang: Lang) -> String {
    if days.iter().all(|&d| d) {
        return lang.pick("every day", "todos los días").into();
    }
    let mut parts = Vec::new();
    let mut i = 0;
    while i < 7 {
        if !days[i] {
            i += 1;
            continue;
        }
        let start = i;
        while i + 1 < 7 && days[i + 1] {
            i += 1;
        }
        parts.push(match i - start {
            0 => day_name(start, lang).to_string(),
            1 => format!("{}, {}", day_name(start, lang), day_name(i, lang)),
            _ => format!("{}–{}", day_name(start, lang), day_name(i, lang)),
        });
        i += 1;
    }
    parts.join(", ")
}

/// The window's schedule in a few words, e.g. `Mon–Fri 08:00–17:30 Europe/Berlin`.
pub fn schedule_text(w: &Window, lang: Lang) -> String {
    let tz = w.zone().name();
    match (w.kind(), w.weekly()) {
        (Kind::EKeyFull, _) => lang.pick("full access", "acceso total").into(),
        (Kind::AlertAny, _) => lang.pick("any time", "en cualquier momento").into(),
        (Kind::ScheduledOpen, _) => format!("{} {}", lang.pick("scheduled opening hours", "horario de apertura programado"), tz),
        (_, Some(weekly)) => {
            let times = match weekly.times {
                None => lang.pick("all day", "todo el día").to_string(),
                Some((s, e)) => format!("{}–{}", format_minutes(s / 60_000), format_minutes(e / 60_000)),
            };
            format!("{} {} {}", days_text(&weekly.days, lang), times, tz)
        }
        (_, None) => lang.pick("one-time key already used", "llave de un solo uso ya utilizada").into(),
    }
}

/// An instant as the people at the door read it: `Mon 08:00` within the coming week, else with the date.
pub fn when_text(t: i64, now: i64, w: &Window, lang: Lang) -> String {
    let local = w.zone().to_local(t);
    let day = local.div_euclid(DAY_MS);
    let hm = format_minutes(local.rem_euclid(DAY_MS) / 60_000);
    if day - w.zone().to_local(now).div_euclid(DAY_MS) < 7 {
        format!("{} {}", day_name(weekday(day), lang), hm)
    } else {
        format!("{} {} {}", day_name(weekday(day), lang), format_date(day), hm)
    }
}

/// Why the window is open or closed at `now`, with when that changes.
///
/// ```
/// use access_window::{describe::{reason, Lang}, Window};
/// let w = Window::from_json(r#"{"kind":"ekey","access":"custom","tz":"Europe/Berlin","startDate":"2026-03-01",
///   "endDate":null,"days":[true,true,true,true,true,false,false],"allDay":false,"startTime":"08:00","endTime":"17:30"}"#).unwrap();
/// let sat = 1_773_504_000_000; // Sat 2026-03-14 17:00 Berlin
/// assert_eq!(reason(&w, sat, Lang::En), "outside Mon–Fri 08:00–17:30 Europe/Berlin; next opens Mon 08:00");
/// assert_eq!(reason(&w, sat, Lang::Es), "fuera de lun–vie 08:00–17:30 Europe/Berlin; próxima apertura lun 08:00");
/// ```
pub fn reason(w: &Window, now: i64, lang: Lang) -> String {
    let sched = schedule_text(w, lang);
    let open = w.is_open(now);
    if open && matches!(w.kind(), Kind::EKeyFull | Kind::AlertAny) {
        return sched;
    }
    if open {
        return match w.next_change(now) {
            Some(t) => {
                format!("{} {}; {} {}", lang.pick("within", "dentro de"), sched, lang.pick("closes", "cierra"), when_text(t, now, w, lang))
            }
            None => format!("{} {}", lang.pick("within", "dentro de"), sched),
        };
    }
    if w.kind() == (Kind::EKeyOneTime { used: true }) {
        return sched;
    }
    let today = w.zone().to_local(now).div_euclid(DAY_MS);
    let next = w.next_open(now);
    let head = match w.weekly() {
        Some(weekly) if weekly.start_date.map_or(false, |s| today < s) => {
            let s = format_date(weekly.start_date.unwrap_or(today));
            format!("{} {}", lang.pick("not valid before", "no válida antes del"), s)
        }
        Some(weekly) if next.is_none() && weekly.end_date.map_or(false, |e| today > e) => {
            let e = format_date(weekly.end_date.unwrap_or(today));
            return format!("{} {}", lang.pick("expired after", "caducada después del"), e);
        }
        _ => match w.holiday_at(now) {
            Some("") => lang.pick("holiday", "festivo").to_string(),
            Some(name) => format!("{}: {}", lang.pick("holiday", "festivo"), name),
            None => format!("{} {}", lang.pick("outside", "fuera de"), sched),
        },
    };
    match next {
        Some(t) => format!("{}; {} {}", head, lang.pick("next opens", "próxima apertura"), when_text(t, now, w, lang)),
        None => head,
    }
}
