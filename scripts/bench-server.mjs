// What the console benchmarks share: running the build steps, a free loopback port, waiting for
// `wrangler dev` to answer, and signing in through the page.
import { execFileSync } from "node:child_process";
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
