//! The WASM boundary: a small C ABI over linear memory (see docs/decisions/0002-core-c-abi.md).
//!
//! Strings travel as UTF-8 `(ptr, len)`. Answers to `aw_call` are left in a module-owned buffer
//! read through `aw_result_ptr` until the next call. Compiled windows are small integer handles.

use crate::api::call_number;
use crate::instant::from_f64;
use crate::Window;
use std::alloc::{alloc, dealloc, Layout};

// The module is single-threaded: these are only touched from the exported functions below.
static mut RESULT: Vec<u8> = Vec::new();
static mut HANDLES: Vec<Option<Window>> = Vec::new();

fn set_result(s: String) -> usize {
    let len = s.len();
    unsafe { RESULT = s.into_bytes() };
    len
}

unsafe fn input<'a>(ptr: *const u8, len: usize) -> &'a str {
    std::str::from_utf8(std::slice::from_raw_parts(ptr, len)).unwrap_or("\u{0}")
}

/// Allocates `len` bytes, 8-aligned so the host can place f64 arrays there.
#[no_mangle]
pub extern "C" fn aw_alloc(len: usize) -> *mut u8 {
    match Layout::from_size_align(len.max(1), 8) {
        Ok(layout) => unsafe { alloc(layout) },
        Err(_) => std::ptr::null_mut(),
    }
}

/// Frees memory from `aw_alloc` with the same `len`.
#[no_mangle]
pub unsafe extern "C" fn aw_free(ptr: *mut u8, len: usize) {
    if let Ok(layout) = Layout::from_size_align(len.max(1), 8) {
        dealloc(ptr, layout);
    }
}

/// Runs operation `op` on the JSON at `(ptr, len)`; returns the answer's length.
#[no_mangle]
pub unsafe extern "C" fn aw_call(op: u32, ptr: *const u8, len: usize) -> usize {
    let text = input(ptr, len);
    set_result(call_number(op, text))
}

#[no_mangle]
pub unsafe extern "C" fn aw_result_ptr() -> *const u8 {
    RESULT.as_ptr()
}

/// Compiles the window JSON at `(ptr, len)`; returns a handle > 0, or 0 when the window is
/// invalid (the `validate` operation says why).
#[no_mangle]
pub unsafe extern "C" fn aw_compile(ptr: *const u8, len: usize) -> u32 {
    match Window::from_json(input(ptr, len)) {
        Ok(w) => {
            let slot = HANDLES.iter().position(Option::is_none).unwrap_or_else(|| {
                HANDLES.push(None);
                HANDLES.len() - 1
            });
            HANDLES[slot] = Some(w);
            slot as u32 + 1
        }
        Err(_) => 0,
    }
}

/// Releases a compiled window.
#[no_mangle]
pub unsafe extern "C" fn aw_release(handle: u32) {
    if let Some(slot) = HANDLES.get_mut((handle as usize).wrapping_sub(1)) {
        *slot = None;
    }
}

fn compiled(handle: u32) -> Option<&'static Window> {
    unsafe { HANDLES.get((handle as usize).wrapping_sub(1)).and_then(Option::as_ref) }
}

/// 1 when the compiled window is open at `ms`, 0 when closed, -1 for a bad handle or instant.
#[no_mangle]
pub extern "C" fn aw_is_open(handle: u32, ms: f64) -> i32 {
    match (compiled(handle), from_f64(ms)) {
        (Some(w), Some(t)) => w.is_open(t) as i32,
        _ => -1,
    }
}

/// Evaluates `n` instants (f64 epoch ms at `times`) into `out` (1 open, 0 closed, 2 invalid
/// instant); returns `n`, or -1 for a bad handle.
#[no_mangle]
pub unsafe extern "C" fn aw_eval_batch(handle: u32, times: *const f64, n: usize, out: *mut u8) -> i32 {
    let w = match compiled(handle) {
        Some(w) => w,
        None => return -1,
    };
    let times = std::slice::from_raw_parts(times, n);
    let out = std::slice::from_raw_parts_mut(out, n);
    for (o, &ms) in out.iter_mut().zip(times) {
        *o = match from_f64(ms) {
            Some(t) => w.is_open(t) as u8,
            None => 2,
        };
    }
    n as i32
}
