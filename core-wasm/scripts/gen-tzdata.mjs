#!/usr/bin/env node
// Regenerates src/tz/tzdata.bin from the IANA source text (tzdata.zi).
// Usage: node core-wasm/scripts/gen-tzdata.mjs [path/to/tzdata.zi]
// zic compiles the source in "slim" form (only the transitions the final POSIX rule cannot
// produce); this script re-encodes every zone compactly. Format: docs/decisions/0001-core-tzdata-encoding.md
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const source = process.argv[2] ?? "/usr/share/zoneinfo/tzdata.zi";
const out = join(here, "..", "src", "tz", "tzdata.bin");

const text = readFileSync(source, "utf8");
const version = /^# version (\S+)/m.exec(text)?.[1];
if (!version) throw new Error(`no "# version" line in ${source}`);

const names = new Map(); // name -> isLink
for (const line of text.split("\n")) {
  const f = line.split(/\s+/);
  if (f[0] === "Z") names.set(f[1], false);
  if (f[0] === "L") names.set(f[2], true);
}

function main() {
  const dir = mkdtempSync(join(tmpdir(), "tzdata-"));
  try {
    execFileSync("zic", ["-b", "slim", "-d", dir, source], { stdio: "inherit" });
    const payloads = [];
    const payloadIndex = new Map();
    const entries = [...names.keys()].sort(byBytes).map((name) => {
      const bytes = encodeZone(parseTzif(readFileSync(join(dir, name)), name));
      const key = Buffer.from(bytes).toString("base64");
      if (!payloadIndex.has(key)) {
        payloadIndex.set(key, payloads.length);
        payloads.push(bytes);
      }
      return { name, zone: payloadIndex.get(key), isLink: names.get(name) };
    });

    const w = new Writer();
    w.bytes(Buffer.from("AWTZ"));
    w.u8(1);
    w.str(version);
    w.u16(entries.length);
    for (const e of entries) {
      w.str(e.name);
      w.u16(e.zone);
      w.u8(e.isLink ? 1 : 0);
    }
    w.u16(payloads.length);
    let offset = 0;
    for (const p of payloads) {
      w.u32(offset);
      offset += p.length;
    }
    for (const p of payloads) w.bytes(p);
    writeFileSync(out, w.finish());
    console.log(`tzdata ${version}: ${entries.length} names, ${payloads.length} distinct zones, ${w.length} bytes -> ${out}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function byBytes(a, b) {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

// TZif (RFC 8536): skip the 32-bit block, read the 64-bit block and the footer.
function parseTzif(buf, name) {
  if (buf.toString("latin1", 0, 4) !== "TZif" || buf[4] < 0x32) throw new Error(`${name}: not TZif v2+`);
  const counts = (at) => [0, 1, 2, 3, 4, 5].map((i) => buf.readUInt32BE(at + 20 + 4 * i));
  const [isut1, isstd1, leap1, time1, type1, char1] = counts(0);
  const v2 = 44 + time1 * 5 + type1 * 6 + char1 + leap1 * 8 + isstd1 + isut1;
  const [, , leap, timecnt, typecnt, charcnt] = counts(v2);
  if (leap) throw new Error(`${name}: leap seconds not supported`);
  let p = v2 + 44;
  const times = [];
  for (let i = 0; i < timecnt; i++, p += 8) times.push(Number(buf.readBigInt64BE(p)));
  const idx = [...buf.subarray(p, p + timecnt)];
  p += timecnt;
  const utoffs = [];
  for (let i = 0; i < typecnt; i++, p += 6) utoffs.push(buf.readInt32BE(p));
  p += charcnt + buf.readUInt32BE(v2 + 24) + buf.readUInt32BE(v2 + 20); // abbreviations, isstd, isut
  const footer = buf.toString("latin1", p).split("\n")[1];
  return { name, times, offsets: idx.map((i) => utoffs[i]), initial: utoffs[0], footer: parsePosix(footer, name) };
}

// POSIX TZ string, with the RFC 8536 extensions (quoted names, hours -167..167 in rule times).
function parsePosix(s, name) {
  if (!s) return null;
  let i = 0;
  const fail = () => {
    throw new Error(`${name}: cannot parse TZ string "${s}" at ${i}`);
  };
  const zoneName = () => {
    if (s[i] === "<") {
      i = s.indexOf(">", i) + 1;
      if (i === 0) fail();
    } else {
      const m = /^[A-Za-z]{3,}/.exec(s.slice(i)) ?? fail();
      i += m[0].length;
    }
  };
  const hms = () => {
    const m = /^([+-]?)(\d{1,3})(?::(\d{2}))?(?::(\d{2}))?/.exec(s.slice(i)) ?? fail();
    i += m[0].length;
    const v = +m[2] * 3600 + +(m[3] ?? 0) * 60 + +(m[4] ?? 0);
    return m[1] === "-" ? -v : v;
  };
  const rule = () => {
    let r;
    let m;
    if ((m = /^M(\d+)\.(\d)\.(\d)/.exec(s.slice(i)))) r = { kind: 0, month: +m[1], week: +m[2], weekday: +m[3] };
    else if ((m = /^J(\d+)/.exec(s.slice(i)))) r = { kind: 1, day: +m[1] };
    else if ((m = /^(\d+)/.exec(s.slice(i)))) r = { kind: 2, day: +m[1] };
    else fail();
    i += m[0].length;
    r.time = 7200;
    if (s[i] === "/") {
      i++;
      r.time = hms();
    }
    return r;
  };
  zoneName();
  const std = -hms();
  if (i === s.length) return { std };
  zoneName();
  const dst = i < s.length && s[i] !== "," ? -hms() : std + 3600;
  if (s[i++] !== ",") fail();
  const start = rule();
  if (s[i++] !== ",") fail();
  const end = rule();
  if (i !== s.length) fail();
  return { std, dst, start, end };
}

function encodeZone(z) {
  // Only offset changes matter to the engine: drop transitions that change the name or isdst alone,
  // except the last one, where the POSIX rule takes over.
  const times = [];
  const offs = [];
  let prev = z.initial;
  z.times.forEach((t, k) => {
    if (z.offsets[k] !== prev || k === z.times.length - 1) {
      times.push(t);
      offs.push(z.offsets[k]);
      prev = z.offsets[k];
    }
  });
  const table = [...new Set([z.initial, ...offs])];
  const w = new Writer();
  w.varint(table.length);
  for (const o of table) w.zigzag(o);
  w.u8(table.indexOf(z.initial));
  w.varint(times.length);
  let last = 0;
  times.forEach((t, k) => {
    w.zigzag(t - last);
    w.u8(table.indexOf(offs[k]));
    last = t;
  });
  const f = z.footer;
  if (!f) w.u8(0);
  else if (f.dst === undefined) {
    w.u8(1);
    w.zigzag(f.std);
  } else {
    w.u8(2);
    w.zigzag(f.std);
    w.zigzag(f.dst);
    for (const r of [f.start, f.end]) {
      w.u8(r.kind);
      if (r.kind === 0) {
        w.u8(r.month);
        w.u8(r.week);
        w.u8(r.weekday);
      } else w.u16(r.day);
      w.zigzag(r.time);
    }
  }
  return w.finish();
}

class Writer {
  #parts = [];
  length = 0;
  bytes(b) {
    this.#parts.push(Buffer.from(b));
    this.length += b.length;
  }
  u8(v) {
    this.bytes([v]);
  }
  u16(v) {
    this.bytes([v & 0xff, v >> 8]);
  }
  u32(v) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.bytes(b);
  }
  str(s) {
    const b = Buffer.from(s);
    this.u8(b.length);
    this.bytes(b);
  }
  varint(v) {
    const out = [];
    while (v >= 0x80) {
      out.push((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    out.push(v);
    this.bytes(out);
  }
  zigzag(v) {
    this.varint(v < 0 ? -2 * v - 1 : 2 * v);
  }
  finish() {
    return Buffer.concat(this.#parts);
  }
}

main();
