// What the console benchmarks share: running the build steps, serving a fresh local D1 with
// `wrangler dev` on a free loopback port, signing in through the page, and timing with percentiles.
import { execFileSync, spawn } from "node:child_process";
import { createServer } from "node:net";

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The benchmark's environment (no metrics, CI mode, plus `extra`) and a synchronous runner that uses it. */
export function benchEnv(extra = {}) {
  const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true", ...extra };
  const run = (cmd, args, more = {}) => execFileSync(cmd, args, { stdio: ["ignore", "inherit", "inherit"], env: { ...env, ...more } });
  return { env, run };
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
  const server = spawn("npx", ["wrangler", "dev", "--ip", "127.0.0.1", "--port", String(port), "--persist-to", dir, "--show-interactive-dev-session=false"], {
    env,
    stdio: "ignore",
    detached: true,
  });
  await waitUntilUp(origin, server);
  return { origin, server };
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
