//! Access windows for keyless doors, evaluated in IANA time zones with exact DST semantics.
//!
//! A window (an e-key, a group key, an alert schedule or a door's scheduled opening hours) is
//! JSON, described in docs/ARCHITECTURE.md §5. An instant is inside when its local date-time in the
//! window's zone lies in one of the window's occurrences. The crate has no clock: every
//! instant is passed in, as epoch milliseconds.
//!
//! ```
//! use access_window::Window;
//! let w = Window::from_json(r#"{"kind":"ekey","access":"custom","tz":"Europe/Berlin",
//!   "startDate":"2026-03-01","endDate":"2026-06-30","days":[true,true,true,true,true,false,false],
//!   "allDay":false,"startTime":"08:00","endTime":"17:30","used":false}"#).unwrap();
//! assert!(w.is_open(1_772_611_200_000));  // Wed 2026-03-04 09:00 Berlin
//! assert!(!w.is_open(1_772_645_400_000)); // Wed 2026-03-04 18:30 Berlin
//! ```

pub mod api;
pub mod civil;
pub mod describe;
mod error;
pub mod holidays;
pub mod instant;
pub mod json;
pub mod tz;
mod window;

#[cfg(target_arch = "wasm32")]
mod ffi;

pub use error::{Error, CODES};
pub use holidays::HolidayRule;
pub use tz::Zone;
pub use window::{Kind, Window};
