// Loader and typed wrapper for core.wasm (the access-window core). No dependencies; runs in
// Node 20, browsers and workerd. The module's C ABI is in docs/decisions/0002-core-c-abi.md.

const OP = { eval: 1, occurrences: 2, validate: 3, decide: 4, nextChange: 5, zones: 6, version: 7, local: 8 };
/** Instants evaluated per batch call: bounds the scratch memory inside the module. */
const CHUNK = 16384;

/** An invalid input: `code` and `field` are those of the first problem, `errors` lists them all. */
export class CoreError extends Error {
  constructor(errors) {
    super(errors.map((e) => `${e.code}: ${e.message}`).join("; "));
    this.name = "CoreError";
    this.code = errors[0]?.code;
    this.field = errors[0]?.field;
    this.errors = errors;
  }
}

/**
 * Creates a core synchronously from a compiled `WebAssembly.Module` (workerd:
 * `import mod from "./core.wasm"`) or from the module's bytes (Node; browsers only allow small
 * synchronous compiles, use `loadCore` there).
 */
export function createCore(moduleOrBytes) {
  const module =
    moduleOrBytes instanceof WebAssembly.Module ? moduleOrBytes : new WebAssembly.Module(toBytes(moduleOrBytes));
  return makeCore(new WebAssembly.Instance(module, {}));
}

/**
 * Loads a core asynchronously from a URL, a `Response` (or a promise of one), bytes or a compiled module.
 * Browser example: `await loadCore(new URL("./core.wasm", import.meta.url))`.
 */
export async function loadCore(source) {
  source = await source;
  if (source instanceof WebAssembly.Module) return makeCore(await WebAssembly.instantiate(source, {}));
  if (typeof source === "string" || source instanceof URL) source = await fetch(source);
  if (typeof Response !== "undefined" && source instanceof Response) {
    if (!source.ok) throw new Error(`cannot load core.wasm: HTTP ${source.status}`);
    source = await source.arrayBuffer();
  }
  const { instance } = await WebAssembly.instantiate(toBytes(source), {});
  return makeCore(instance);
}

function toBytes(b) {
  if (b instanceof ArrayBuffer || ArrayBuffer.isView(b)) return b;
  throw new TypeError("expected a WebAssembly.Module, an ArrayBuffer or a typed array");
}

function makeCore(instance) {
  const x = instance.exports;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let scratch = 0; // CHUNK f64 inputs followed by CHUNK u8 outputs, allocated on first batch
  const release =
    typeof FinalizationRegistry === "function" ? new FinalizationRegistry((handle) => x.aw_release(handle)) : null;

  function withInput(text, fn) {
    const bytes = encoder.encode(text);
    const ptr = x.aw_alloc(bytes.length);
    new Uint8Array(x.memory.buffer, ptr, bytes.length).set(bytes);
    try {
      return fn(ptr, bytes.length);
    } finally {
      x.aw_free(ptr, bytes.length);
    }
  }
  const result = (len) => decoder.decode(new Uint8Array(x.memory.buffer, x.aw_result_ptr(), len));
  const callJson = (op, text) => {
    const code = OP[op];
    if (!code) throw new TypeError(`unknown operation ${op}`);
    return withInput(text, (ptr, len) => result(x.aw_call(code, ptr, len)));
  };
  const call = (op, request) => {
    const out = JSON.parse(callJson(op, JSON.stringify(request)));
    if (out && out.error) throw new CoreError([out.error]);
    return out;
  };
  const windowJson = (w) => (typeof w === "string" ? JSON.parse(w) : w);
  const instant = (at) => (at instanceof Date ? at.getTime() : at);

  function compile(window) {
    const json = typeof window === "string" ? window : JSON.stringify(window);
    let handle = withInput(json, (ptr, len) => x.aw_compile(ptr, len));
    if (handle === 0) throw new CoreError(core.validate(json));
    const parsed = JSON.parse(json);
    const alive = () => {
      if (!handle) throw new Error("compiled window already freed");
      return handle;
    };
    const compiled = {
      window: parsed,
      isOpen(at) {
        // Strings take the JSON path, which parses ISO-8601 and reports errors.
        const r = typeof at === "string" ? -1 : x.aw_is_open(alive(), instant(at));
        return r < 0 ? core.isOpen(parsed, at) : r === 1;
      },
      evaluate(times, out = new Uint8Array(times.length)) {
        const h = alive();
        if (!scratch) scratch = x.aw_alloc(CHUNK * 9);
        for (let i = 0; i < times.length; i += CHUNK) {
          const n = Math.min(CHUNK, times.length - i);
          new Float64Array(x.memory.buffer, scratch, n).set(times.subarray(i, i + n));
          x.aw_eval_batch(h, scratch, n, scratch + CHUNK * 8);
          out.set(new Uint8Array(x.memory.buffer, scratch + CHUNK * 8, n), i);
        }
        return out;
      },
      occurrences: (from, to) => core.occurrences(parsed, from, to),
      nextChange: (at) => core.nextChange(parsed, at),
      free() {
        if (!handle) return;
        release?.unregister(compiled);
        x.aw_release(handle);
        handle = 0;
      },
    };
    release?.register(compiled, handle, compiled);
    return compiled;
  }

  const core = {
    isOpen: (window, at) => call("eval", { window: windowJson(window), at: instant(at) }).open,
    evaluate: (window, at) => call("eval", { window: windowJson(window), at: instant(at) }),
    occurrences: (window, from, to) =>
      call("occurrences", { window: windowJson(window), from: instant(from), to: instant(to) }).occurrences,
    validate: (window) => JSON.parse(callJson("validate", typeof window === "string" ? window : JSON.stringify(window))).errors,
    compile,
    decide: (keys, at, { lang = "en" } = {}) => call("decide", { keys, at: instant(at), lang }),
    nextChange: (window, at) => call("nextChange", { window: windowJson(window), at: instant(at) }),
    nextOpen: (window, at) => call("nextChange", { window: windowJson(window), at: instant(at) }).nextOpen,
    formatLocal: (at, tz) => call("local", { tz, at: instant(at) }).local,
    offsetAt: (at, tz) => call("local", { tz, at: instant(at) }).offset,
    tzdataVersion: () => JSON.parse(callJson("version", "")),
    zones({ links = true } = {}) {
      const z = JSON.parse(callJson("zones", ""));
      return links ? [...z.zones, ...z.links].sort() : z.zones;
    },
    callJson,
  };
  return core;
}
