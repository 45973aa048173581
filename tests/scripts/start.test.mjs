// `npm start` refuses to run beside something that holds one of its ports, names the part and the
// variable that moves it, and exits non-zero before building or starting anything.
// Run: node --test tests/scripts/start.test.mjs
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { test } from "node:test";

const listen = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => resolve(server));
  });

async function freePort() {
  const s = await listen();
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

function start(env) {
  return new Promise((resolve) => {
    const child = spawn("bash", ["scripts/start.sh"], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const timer = setTimeout(() => child.kill("SIGTERM"), 30_000);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out });
    });
  });
}

for (const [variable, part] of [
  ["WS_PORT", "gateway WebSocket"],
  ["MQTT_PORT", "gateway MQTT"],
  ["PORT", "console"],
]) {
  test(`a busy ${variable} stops npm start with a message naming the ${part}`, async () => {
    const busy = await listen();
    const port = busy.address().port;
    try {
      const env = { PORT: String(await freePort()), MQTT_PORT: String(await freePort()), WS_PORT: String(await freePort()), [variable]: String(port) };
      const r = await start(env);
      assert.equal(r.signal, null, `npm start did not stop by itself:\n${r.out}`);
      assert.equal(r.code, 1, r.out);
      assert.match(r.out, new RegExp(`npm start: port ${port} for the ${part} is already in use`));
      assert.match(r.out, new RegExp(`${variable}=<port> npm start`));
      assert.doesNotMatch(r.out, /Building the console/);
    } finally {
      busy.close();
    }
  });
}
