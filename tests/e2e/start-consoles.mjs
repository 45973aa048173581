/**
 * Starts every test console of an end-to-end run at once: `node tests/e2e/start-consoles.mjs <ready
 * port>`, with E2E_CONSOLES a JSON list of `{ command, url }` (playwright.config.ts). Playwright starts
 * its web servers one after another; six consoles took about a minute that way, most of it seeding
 * one template per seed instant, which scripts/d1-template.sh can do side by side (its lock makes a
 * template once). When every console answers its URL, this answers on the ready port; a console that
 * exits first ends the run. The consoles share this process group, so stopping it stops them.
 */
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";

const readyPort = Number(process.argv[2]);
/** @type {{ command: string; url: string }[]} */
const consoles = JSON.parse(process.env.E2E_CONSOLES ?? "[]");
const children = consoles.map(({ command }) => spawn("bash", ["-c", command], { stdio: "inherit" }));
for (const [i, child] of children.entries()) {
  child.on("exit", (code, signal) => {
    console.error(`console ${consoles[i].url} exited (${signal ?? code})`);
    stop(1);
  });
}

function stop(code) {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  process.exit(code);
}
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stop(0));

/** Whether `url` answers at all (any status: the console is up once it answers). */
async function answers(url) {
  try {
    await fetch(url, { redirect: "manual", headers: { connection: "close" } });
    return true;
  } catch {
    return false;
  }
}

await Promise.all(
  consoles.map(async ({ url }) => {
    while (!(await answers(url))) await sleep(250);
  }),
);
createServer((_, res) => res.end("every console is up")).listen(readyPort, "127.0.0.1");
