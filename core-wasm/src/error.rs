//! The one error type of the crate.

use crate::json::quote;
use std::fmt;

/// A problem with an input, reported with a stable `code` and the `field` it concerns.
///
/// Codes have the form `<field name>.<problem>` (for example `endDate.beforeStart`) and never
/// change meaning; messages are for people and include the offending values.
///
/// ```
/// use access_window::Window;
/// let errors = Window::from_json(r#"{"kind":"group","tz":"Mars/Base","days":[true,true,true,true,true,true,true],"allDay":true}"#).unwrap_err();
/// assert_eq!(errors[0].code(), "tz.unknown");
/// assert_eq!(errors[0].field(), "tz");
/// assert_eq!(errors[0].message(), r#"unknown time zone "Mars/Base""#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    code: &'static str,
    field: String,
    message: String,
}

impl Error {
    pub(crate) fn new(code: &'static str, field: impl Into<String>, message: impl Into<String>) -> Error {
        Error { code, field: field.into(), message: message.into() }
    }

    /// The stable machine-readable code, e.g. `startTime.invalid`.
    pub fn code(&self) -> &'static str {
        self.code
    }

    /// The path of the field in the input, e.g. `week[2].closeTime`; empty for the whole input.
    pub fn field(&self) -> &str {
        &self.field
    }

    /// A sentence for people, naming the values involved.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// `{"code":…,"field":…,"message":…}`
    pub fn to_json(&self) -> String {
        format!(r#"{{"code":{},"field":{},"message":{}}}"#, quote(self.code), quote(&self.field), quote(&self.message))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for Error {}

/// Every code the crate can report, for documentation and exhaustive tests.
pub const CODES: &[&str] = &[
    "json.invalid",
    "window.invalid",
    "kind.missing",
    "kind.invalid",
    "tz.missing",
    "tz.unknown",
    "access.missing",
    "access.invalid",
    "schedule.missing",
    "schedule.invalid",
    "used.missing",
    "used.invalid",
    "startDate.invalid",
    "endDate.invalid",
    "endDate.beforeStart",
    "days.missing",
    "days.invalid",
    "days.none",
    "allDay.missing",
    "allDay.invalid",
    "startTime.missing",
    "startTime.invalid",
    "endTime.missing",
    "endTime.invalid",
    "endTime.equalsStart",
    "fpi.missing",
    "fpi.invalid",
    "firstEntryAt.invalid",
    "week.missing",
    "week.invalid",
    "exceptions.invalid",
    "date.missing",
    "date.invalid",
    "date.duplicate",
    "openWholeDay.missing",
    "openWholeDay.invalid",
    "openTime.missing",
    "openTime.invalid",
    "closeTime.missing",
    "closeTime.invalid",
    "closeTime.notAfterOpen",
    "onHolidays.invalid",
    "holidays.invalid",
    "name.invalid",
    "at.missing",
    "at.invalid",
    "from.missing",
    "from.invalid",
    "to.missing",
    "to.invalid",
    "to.beforeFrom",
    "to.rangeTooLong",
    "keys.invalid",
    "lang.invalid",
    "op.unknown",
];
