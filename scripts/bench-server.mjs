// What the console benchmarks share: running the build steps, serving a fresh local D1 with
// `wrangler dev` on a free loopback port, signing in through the page, and timing with percentiles.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg } from "node:os";
import { join } from "node:path";

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The benchmark's environment (no metrics, CI mode, plus `extra`) and a synchronous runner that uses it. */
export function benchEnv(extra = {}) {
  const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true", ...extra };
  const run = (cmd, args, more = {}) => execFileSync(cmd, args, { stdio: ["ignore", "inherit", "inherit"], env: { ...env, ...more } });
  return { env, run };
}

/** Rows of an SQL command run on the local D1 in the state directory `dir` (`wrangler d1 execute --local`). */
export function sql(dir, command) {
  const { env } = benchEnv();
  const out = execFileSync("npx", ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", dir, "--json", "--command", command], { env, encoding: "utf8" });
  return JSON.parse(out)[0].results;
}

/** The local D1's SQLite file in a state directory. */
export function d1File(dir) {
  const sub = join(dir, "v3", "d1", "miniflare-D1DatabaseObject");
  return join(
    sub,
    readdirSync(sub).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite"),
  );
}

/** The load average (1, 5 and 15 minutes): on a shared machine, how much of an absolute time is queueing. */
export const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(" / ");

/** The console built (once, when build/ is missing) and bundled as wrangler bundles it (scripts/bundle-console.sh). */
export function ensureBuilt() {
  if (!existsSync("build/server/index.js")) execFileSync("npx", ["remix", "vite:build"], { stdio: "ignore" });
  execFileSync("bash", ["scripts/bundle-console.sh"], { stdio: "ignore" });
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

export async function waitUntilUp(origin, child) {
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error("wrangler dev exited early");
    try {
      if ((await fetch(`${origin}/login`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await sleep(500);
  }
  throw new Error("wrangler dev did not answer within 120 s");
}

/** Signs in through the sign-in page; returns the session's Cookie header. */
export async function signIn(origin, who) {
  const res = await fetch(`${origin}/login`, { method: "POST", body: new URLSearchParams({ intent: "login", ...who }), redirect: "manual" });
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]);
  if (res.status !== 302 || cookies.length === 0) throw new Error(`sign-in failed with ${res.status}`);
  return cookies.join("; ");
}

/** Serves the built console over the local D1 in `dir` on a free loopback port; resolves once it answers. */
export async function startConsole(dir, env) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  // wrangler.toml is production's config: a local server opts into development.
  const local = ["--var", "ENVIRONMENT:development", "--var", `PUBLIC_ORIGIN:${origin}`];
  const server = spawn("npx", ["wrangler", "dev", "--ip", "127.0.0.1", "--port", String(port), "--persist-to", dir, "--show-interactive-dev-session=false", ...local], {
    env,
    stdio: "ignore",
    detached: true,
  });
  await waitUntilUp(origin, server);
  return { origin, server };
}

/**
 * Like `startConsole`, but `via: "worker"` (the default) serves through `scripts/bench-worker.mjs`:
 * the same local runtime without `wrangler dev`'s devtools inspector, whose buffer of the Worker's
 * network events grows with every D1 query while no debugger is attached. `via: "miniflare"` serves
 * wrangler's bundle (.tmp/bundle, scripts/bundle-console.sh) with Miniflare alone
 * (`scripts/serve-miniflare.mjs`), as a local runner does: development, with its own PUBLIC_ORIGIN.
 */
export async function startBenchServer(dir, env, { via = "worker" } = {}) {
  if (via === "wrangler") return startConsole(dir, env);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const args =
    via === "miniflare"
      ? ["scripts/serve-miniflare.mjs", String(port), dir, "--var", "ENVIRONMENT:development", "--var", `PUBLIC_ORIGIN:${origin}`]
      : ["scripts/bench-worker.mjs", dir, String(port)];
  const server = spawn("node", args, { env, stdio: "ignore", detached: true });
  try {
    await waitUntilUp(origin, server);
  } catch (err) {
    await stopConsole(server); // one that never answered is not left running
    throw err;
  }
  return { origin, server };
}

/**
 * Resident memory (MB) of each process in a server's process group, from /proc: the whole VmRSS and
 * its anonymous part (heaps and caches; the rest is mapped files such as the executable). `role`
 * tells the runtime that runs the Worker and its D1 (a workerd listening on a port of its own
 * choosing) from the dev proxy in front of it (the workerd on the server's port); a lone workerd
 * (Miniflare without wrangler) is the runtime; others go by their program's name.
 */
export function memoryOf(pgid) {
  const out = [];
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2] !== String(pgid)) continue;
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const mb = (field) => Number(status.match(new RegExp(`${field}:\\s+(\\d+)`))?.[1] ?? 0) / 1024;
      const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      const entry = args.find((a) => a.startsWith("--socket-addr=entry="));
      const role = !args[0].endsWith("workerd") ? args[0].split("/").pop() : entry?.endsWith(":0") ? "worker runtime" : "dev proxy";
      out.push({ pid: Number(pid), role, rss: mb("VmRSS"), anon: mb("RssAnon") });
    } catch {
      /* the process ended meanwhile */
    }
  }
  const proxies = out.filter((p) => p.role === "dev proxy");
  if (proxies.length === 1 && !out.some((p) => p.role === "worker runtime")) proxies[0].role = "worker runtime";
  return out;
}

/** Stops a server started by `startConsole` (its whole process group), if it started. */
export async function stopConsole(server) {
  if (server?.pid) {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {
      /* already gone */
    }
  }
  await sleep(500);
}

/** The nearest-rank percentile of ascending samples. */
export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** p50, p95, p99 and mean of samples in ms. */
export function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), mean };
}

/** Times `rounds` sequential GETs of `path` (to the full body) after `warmup` untimed ones. */
export async function measureGet(origin, path, cookie, { warmup, rounds }) {
  const once = async () => {
    const started = performance.now();
    const res = await fetch(origin + path, { headers: { cookie }, redirect: "manual" });
    await res.arrayBuffer();
    return { ms: performance.now() - started, status: res.status };
  };
  for (let i = 0; i < warmup; i++) await once();
  const samples = [];
  let status = 0;
  for (let i = 0; i < rounds; i++) {
    const r = await once();
    samples.push(r.ms);
    status = r.status;
  }
  return { path, status, ...summarize(samples) };
}
