#!/usr/bin/env node
/**
 * Where a command's CPU-seconds go, by process kind and by suite of `npm test`: runs the command and
 * reads /proc every half second, summing each of its descendants' utime + stime (a process living
 * under half a second is missed; the total it prints beside the sum says how much). CPU-seconds, not
 * wall time, compare runs on a machine other work shares.
 *
 *   node scripts/cpu-by-process.mjs [--json out.json] -- npm test
 *   node scripts/cpu-by-process.mjs -- npx playwright test tests/e2e/screens.spec.ts
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";

const args = process.argv.slice(2);
const json = args[0] === "--json" ? args[1] : null;
const command = args.slice(args.indexOf("--") + 1);
if (!command.length) throw new Error("usage: cpu-by-process.mjs [--json out.json] -- <command...>");
const HZ = 100; // USER_HZ: /proc reports ticks of 1/100 s on Linux whatever the kernel's HZ

/** The suite a process belongs to: the outermost ancestor whose command line says (scripts/test.sh's suites). */
const SUITES = [
  ["npm packages", /npm ci/],
  ["end to end", /playwright test/],
  ["door path", /differential\.test\.mjs/],
  ["gateway", /gateway\/scripts\/test\.sh/],
  ["gateway durability (console Worker)", /durability\.test\.js/],
  ["workers clock rerun", /vitest\.workers\.config\.ts tests\/workers\//],
  ["workers integration", /vitest\.workers\.config/],
  ["unit", /vitest\.unit/],
  ["core", /core-wasm\/scripts\/test\.sh/],
  ["console types", /tsc --noEmit/],
  ["gateway types", /tsc -p gateway/],
  ["eslint", /eslint/],
  ["prettier", /prettier/],
  ["build and bundle", /vite:build|bundle-console/],
  ["activity drain-kill", /activity-drain-kill/],
];
/** A Node process's kind by its command line. */
const NODE_KINDS = [
  ["playwright runner", /playwright/],
  ["vitest", /vitest/],
  ["tsc", /typescript|\btsc\b/],
  ["eslint", /eslint/],
  ["prettier", /prettier/],
  ["vite build", /remix|vite/],
  ["wrangler / miniflare host", /wrangler|miniflare|serve-local|start-consoles/],
  ["gateway", /gateway\//],
  ["door path", /door-path/],
  ["npm", /npm/],
];

function kindOf(comm, cmd) {
  if (/chrom|headless/i.test(comm)) return "chromium";
  if (comm === "workerd") return "workerd";
  if (/^(cargo|rustc|rustdoc|cc|cc1|ld|collect2|rust-lld|wasm-opt)$|^build.script/.test(comm) || cmd.includes("/target/")) return "cargo / rustc / core tests";
  if (comm.startsWith("redis")) return "redis";
  if (comm === "zdump") return "zdump";
  if (comm === "esbuild") return "esbuild";
  if (/^(node|npm|MainThread)/.test(comm)) return NODE_KINDS.find(([, re]) => re.test(cmd))?.[0] ?? "node (other)";
  if (/^(bash|sh|sed|awk|grep|cat|tee|cmp|cp|rm|sleep|date|find|flock|mktemp)$/.test(comm)) return "shell tools";
  return `other: ${comm}`;
}

function stat(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
    return { comm: s.slice(s.indexOf("(") + 1, s.lastIndexOf(")")), ppid: +f[1], ticks: +f[11] + +f[12], start: f[19] };
  } catch {
    return null; // ended between the listing and the read
  }
}
const cmdline = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
};

const child = spawn(command[0], command.slice(1), { stdio: "inherit" });
const seen = new Map(); // "pid start" -> { ticks, kind, suite }
const cmds = new Map();

function sample() {
  const stats = new Map();
  for (const d of readdirSync("/proc")) if (/^\d+$/.test(d)) stats.set(+d, stat(+d));
  for (const [pid, s] of stats) {
    if (!s) continue;
    const chain = [];
    for (let p = pid, hops = 0; stats.get(p) && hops < 64; p = stats.get(p).ppid, hops++) {
      chain.push(p);
      if (p === child.pid) break;
    }
    if (chain.at(-1) !== child.pid) continue;
    const key = `${pid} ${s.start}`;
    let entry = seen.get(key);
    if (!entry) {
      const cmdOf = (p) => {
        const k = `${p} ${stats.get(p).start}`;
        if (!cmds.has(k)) cmds.set(k, cmdline(p));
        return cmds.get(k);
      };
      const outermost = chain.reverse().map(cmdOf);
      const suite = outermost.map((c) => SUITES.find(([, re]) => re.test(c))?.[0]).find(Boolean) ?? "(the command itself)";
      entry = { ticks: 0, kind: kindOf(s.comm, cmdOf(pid)), suite };
      seen.set(key, entry);
    }
    entry.ticks = s.ticks;
  }
}

const timer = setInterval(sample, 500);
child.on("exit", (code) => {
  clearInterval(timer);
  const total = (by) => {
    const sums = new Map();
    for (const e of seen.values()) sums.set(by(e), (sums.get(by(e)) ?? 0) + e.ticks / HZ);
    return [...sums].sort((a, b) => b[1] - a[1]);
  };
  const byKind = total((e) => e.kind);
  const bySuite = total((e) => e.suite);
  const bySuiteKind = total((e) => `${e.suite} | ${e.kind}`);
  const sampled = byKind.reduce((a, [, s]) => a + s, 0);
  // The command and every process it waited for, sampled or not: this process's cutime + cstime.
  const own = readFileSync("/proc/self/stat", "utf8");
  const f = own.slice(own.lastIndexOf(")") + 2).split(" ");
  const reaped = (+f[13] + +f[14]) / HZ;
  const lines = [`\nCPU-seconds: ${sampled.toFixed(0)} sampled, ${reaped.toFixed(0)} used by the command and every process it waited for`];
  for (const [title, rows] of [
    ["by process kind", byKind],
    ["by suite", bySuite],
    ["by suite and kind (over 5 s)", bySuiteKind.filter(([, s]) => s >= 5)],
  ]) {
    lines.push(`${title}:`, ...rows.map(([name, s]) => `  ${s.toFixed(1).padStart(8)}  ${name}`));
  }
  console.log(lines.join("\n"));
  if (json) writeFileSync(json, JSON.stringify({ sampled, reaped, byKind, bySuite, bySuiteKind }, null, 1));
  process.exit(code ?? 1);
});
