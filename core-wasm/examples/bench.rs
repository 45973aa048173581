//! Native counterpart of bench/bench.mjs: evaluates the same window over the same instants the way
//! the WASM batch export does, and prints `{"evalsPerSec":…,"opens":…}`.
//! Usage: cargo run --release --example bench -- WINDOW.json TIMES.f64 RUNS

use access_window::instant::from_f64;
use access_window::Window;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        eprintln!("usage: bench WINDOW.json TIMES.f64 RUNS");
        std::process::exit(2);
    }
    let window = std::fs::read_to_string(&args[1]).expect("window file");
    let bytes = std::fs::read(&args[2]).expect("times file");
    let runs: usize = args[3].parse().expect("runs");
    let times: Vec<f64> = bytes.chunks_exact(8).map(|c| f64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]])).collect();
    let w = Window::from_json(&window).unwrap_or_else(|e| panic!("{:?}", e));
    let mut out = vec![0u8; times.len()];
    let mut best = f64::MAX;
    for _ in 0..runs {
        let start = Instant::now();
        for (o, &ms) in out.iter_mut().zip(&times) {
            *o = match from_f64(ms) {
                Some(t) => w.is_open(t) as u8,
                None => 2,
            };
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    let opens: usize = out.iter().map(|&o| o as usize).sum();
    println!(r#"{{"evalsPerSec":{:.0},"opens":{}}}"#, times.len() as f64 / best, opens);
}
