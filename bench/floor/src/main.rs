//! The floor of benchmark scenario 2: what parsing and serialising the ~300-byte
//! `pre_tool_call_decide` context costs with serde_json alone (no hookline).
//! Prints one JSON line per measurement, like the C driver.

use std::hint::black_box;
use std::time::Instant;

/// The same context text as `DECIDE_CONTEXT` in `bench/c/hlbench.c`.
const DECIDE_CONTEXT: &str = concat!(
    r#"{"tool_name":"Bash","tool_args":{"command":"cargo test --release --workspace -- "#,
    r#"--nocapture","cwd":"/home/dev/projects/hookline","timeout_ms":120000,"env":{"#,
    r#""RUST_BACKTRACE":"1","CARGO_TERM_COLOR":"never"},"description":"Run the whole test "#,
    r#"suite"},"session_id":"sess-4f1c2a9e-77d0","turn_number":7,"agent_id":42}"#
);

fn emit(name: &str, samples: &mut [u64]) {
    samples.sort_unstable();
    let n = samples.len();
    let r99 = ((n * 99).div_ceil(100)).max(1);
    let mean = samples.iter().map(|&x| x as f64).sum::<f64>() / n as f64;
    println!(
        "{{\"name\":\"{name}\",\"unit\":\"ns\",\"n\":{n},\"median\":{},\"p99\":{},\"min\":{},\"mean\":{:.0}}}",
        samples[n / 2],
        samples[r99 - 1],
        samples[0],
        mean
    );
}

fn once() -> usize {
    let v: serde_json::Value = serde_json::from_str(black_box(DECIDE_CONTEXT)).expect("valid JSON");
    let s = serde_json::to_string(black_box(&v)).expect("serialisable");
    black_box(s).len()
}

fn main() {
    let n: usize = std::env::var("HLBENCH_REGISTRY_N").ok().and_then(|v| v.parse().ok()).filter(|&n| n > 0).unwrap_or(100_000);
    assert_eq!(once(), DECIDE_CONTEXT.len(), "round trip keeps the text");
    for _ in 0..n / 10 {
        once();
    }
    let mut s = vec![0u64; n];
    for slot in s.iter_mut() {
        let t0 = Instant::now();
        once();
        *slot = t0.elapsed().as_nanos() as u64;
    }
    emit("serde_floor_parse_serialise", &mut s);
}
