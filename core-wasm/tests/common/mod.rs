use access_window::instant::parse_instant;
use access_window::json::Value;

/// Epoch ms of an ISO-8601 instant.
pub fn ms(iso: &str) -> i64 {
    parse_instant(&Value::Str(iso.into()), "at").unwrap_or_else(|e| panic!("{}: {}", iso, e))
}
