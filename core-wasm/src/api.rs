//! JSON-in, JSON-out operations: what the WASM boundary and the CLI expose.

use crate::civil::DAY_MS;
use crate::describe::{reason, Lang};
use crate::error::Error;
use crate::instant::{format_local, parse_instant};
use crate::json::{self, quote, Value};
use crate::tz::{tzdata_version, zone_names, Zone};
use crate::window::{Window, MAX_RANGE_DAYS};

/// Operation numbers of the C ABI's `aw_call`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Eval = 1,
    Occurrences = 2,
    Validate = 3,
    Decide = 4,
    NextChange = 5,
    Zones = 6,
    Version = 7,
    Local = 8,
}

impl Op {
    pub fn from_u32(n: u32) -> Option<Op> {
        [Op::Eval, Op::Occurrences, Op::Validate, Op::Decide, Op::NextChange, Op::Zones, Op::Version, Op::Local]
            .iter()
            .copied()
            .find(|&op| op as u32 == n)
    }
}

/// [`call`] by operation number, as the C ABI passes it.
pub fn call_number(op: u32, input: &str) -> String {
    match Op::from_u32(op) {
        Some(op) => call(op, input),
        None => format!(r#"{{"error":{}}}"#, Error::new("op.unknown", "", format!("unknown operation {}", op)).to_json()),
    }
}

/// Runs one operation on a JSON request and returns the JSON answer; failures come back as
/// `{"error":{"code","field","message"}}`, never as a panic.
///
/// ```
/// use access_window::api::{call, Op};
/// let out = call(Op::Eval, r#"{"window":{"kind":"ekey","access":"full","tz":"America/New_York"},"at":"2026-03-08T07:30:00Z"}"#);
/// assert_eq!(out, r#"{"open":true,"local":"2026-03-08T03:30:00-04:00"}"#);
/// ```
pub fn call(op: Op, input: &str) -> String {
    let result = match op {
        Op::Zones => Ok(zones()),
        Op::Version => Ok(quote(tzdata_version())),
        Op::Validate => Ok(validate(input)),
        _ => match json::parse(input) {
            Err(e) => Err(Error::new("json.invalid", "", format!("invalid JSON: {}", e))),
            Ok(v) if !matches!(v, Value::Obj(_)) => {
                Err(Error::new("json.invalid", "", format!("expected a JSON object, got {}", v.describe())))
            }
            Ok(v) => match op {
                Op::Eval => eval(&v),
                Op::Occurrences => occurrences(&v),
                Op::Decide => decide(&v),
                Op::NextChange => next_change(&v),
                _ => local(&v),
            },
        },
    };
    result.unwrap_or_else(|e| format!(r#"{{"error":{}}}"#, e.to_json()))
}

fn window(v: &Value) -> Result<Window, Error> {
    match v.get("window") {
        Some(w) => Window::from_value(w).map_err(|mut errors| errors.remove(0)),
        None => Err(Error::new("window.invalid", "window", "window is required")),
    }
}

fn instant(v: &Value, field: &'static str) -> Result<i64, Error> {
    match v.get(field) {
        Some(x) => parse_instant(x, field),
        None => {
            let code = match field {
                "at" => "at.missing",
                "from" => "from.missing",
                _ => "to.missing",
            };
            Err(Error::new(code, field, format!("{} is required", field)))
        }
    }
}

fn eval(v: &Value) -> Result<String, Error> {
    let w = window(v)?;
    let at = instant(v, "at")?;
    Ok(format!(r#"{{"open":{},"local":{}}}"#, w.is_open(at), quote(&format_local(at, w.zone()))))
}

fn occurrences(v: &Value) -> Result<String, Error> {
    let w = window(v)?;
    let (from, to) = (instant(v, "from")?, instant(v, "to")?);
    if to < from {
        return Err(Error::new("to.beforeFrom", "to", format!("to ({}) is before from ({})", to, from)));
    }
    if to - from > MAX_RANGE_DAYS * DAY_MS {
        return Err(Error::new(
            "to.rangeTooLong",
            "to",
            format!("the range is {} days; at most {} are allowed", (to - from) / DAY_MS, MAX_RANGE_DAYS),
        ));
    }
    let list: Vec<String> = w.occurrences(from, to).iter().map(|(s, e)| format!("[{},{}]", s, e)).collect();
    Ok(format!(r#"{{"occurrences":[{}]}}"#, list.join(",")))
}

/// `{"errors":[…]}` for a window given as JSON text; empty when it is valid.
pub fn validate(text: &str) -> String {
    let errors = match Window::from_json(text) {
        Ok(_) => Vec::new(),
        Err(errors) => errors,
    };
    let list: Vec<String> = errors.iter().map(Error::to_json).collect();
    format!(r#"{{"errors":[{}]}}"#, list.join(","))
}

fn opt(t: Option<i64>) -> String {
    t.map_or("null".into(), |t| t.to_string())
}

fn next_change(v: &Value) -> Result<String, Error> {
    let w = window(v)?;
    let at = instant(v, "at")?;
    Ok(format!(r#"{{"open":{},"nextChange":{},"nextOpen":{}}}"#, w.is_open(at), opt(w.next_change(at)), opt(w.next_open(at))))
}

fn local(v: &Value) -> Result<String, Error> {
    let name = match v.get("tz") {
        Some(Value::Str(s)) => s.as_str(),
        _ => return Err(Error::new("tz.missing", "tz", "tz is required")),
    };
    let zone = Zone::get(name).ok_or_else(|| Error::new("tz.unknown", "tz", format!("unknown time zone {}", quote(name))))?;
    let at = instant(v, "at")?;
    Ok(format!(r#"{{"local":{},"offset":{}}}"#, quote(&format_local(at, &zone)), zone.offset_at(at)))
}

fn zones() -> String {
    let names = zone_names();
    let list = |link: bool| names.iter().filter(|n| n.1 == link).map(|n| quote(n.0)).collect::<Vec<_>>().join(",");
    format!(r#"{{"zones":[{}],"links":[{}]}}"#, list(false), list(true))
}

/// A decision over a user's keys for one door at one instant.
///
/// Input `{"keys":[{"id","label","window"}…],"at","lang":"en"|"es"}`. The first key (in the order
/// given) that is open allows; when none is, the reason is that of the key that opens soonest.
fn decide(v: &Value) -> Result<String, Error> {
    let at = instant(v, "at")?;
    let lang = match v.get("lang") {
        None | Some(Value::Null) => Lang::En,
        Some(Value::Str(s)) => {
            Lang::parse(s).ok_or_else(|| Error::new("lang.invalid", "lang", format!("lang must be \"en\" or \"es\", got {}", quote(s))))?
        }
        Some(other) => return Err(Error::new("lang.invalid", "lang", format!("lang must be \"en\" or \"es\", got {}", other.describe()))),
    };
    let keys = match v.get("keys") {
        Some(Value::Arr(k)) => k,
        other => {
            let got = other.map_or("nothing".into(), Value::describe);
            return Err(Error::new("keys.invalid", "keys", format!("keys must be an array of {{id, label, window}}, got {}", got)));
        }
    };
    let key_json = |k: &Value| {
        let id = k.get("id").map_or("null".into(), json::write);
        let label = k.get("label").map_or("null".into(), json::write);
        format!(r#"{{"id":{},"label":{}}}"#, id, label)
    };
    // (key, window or its first error)
    let parsed: Vec<(&Value, Result<Window, Error>)> = keys
        .iter()
        .map(|k| {
            (
                k,
                k.get("window").map_or_else(
                    || Err(Error::new("window.invalid", "window", "window is required")),
                    |w| Window::from_value(w).map_err(|mut e| e.remove(0)),
                ),
            )
        })
        .collect();
    if let Some((k, Ok(w))) = parsed.iter().find(|(_, w)| w.as_ref().map_or(false, |w| w.is_open(at))) {
        return Ok(format!(
            r#"{{"allowed":true,"key":{},"reason":{},"until":{},"nextOpen":null}}"#,
            key_json(k),
            quote(&reason(w, at, lang)),
            opt(w.next_change(at))
        ));
    }
    let soonest =
        parsed.iter().filter_map(|(k, w)| w.as_ref().ok().and_then(|w| w.next_open(at).map(|t| (t, *k, w)))).min_by_key(|&(t, _, _)| t);
    let (key, text, next) = match soonest {
        Some((t, k, w)) => (key_json(k), reason(w, at, lang), Some(t)),
        None => match parsed.iter().find(|(_, w)| w.is_ok()).or_else(|| parsed.first()) {
            Some((k, Ok(w))) => (key_json(k), reason(w, at, lang), None),
            Some((k, Err(e))) => {
                let head = if lang == Lang::Es { "ventana no válida" } else { "invalid window" };
                (key_json(k), format!("{}: {}", head, e.message()), None)
            }
            None => (
                "null".into(),
                (if lang == Lang::Es { "ninguna llave para esta puerta" } else { "no key for this door" }).to_string(),
                None,
            ),
        },
    };
    Ok(format!(r#"{{"allowed":false,"key":{},"reason":{},"until":null,"nextOpen":{}}}"#, key, quote(&text), opt(next)))
}
