/**
 * A local webhook receiver for the tests and `npm start`: a real HTTP server on 127.0.0.1 that keeps
 * every request it gets, so a test can verify the signatures itself (with the `standardwebhooks` package)
 * and count deliveries by webhook-id. Each path is a receiver of its own, scripted by its query:
 *
 *   node scripts/webhook-receiver.mjs [port=2527]
 *
 * - POST /hooks/<name>?fail=N&delay=MS: answers 500 to the first N requests to <name>, then 200; waits
 *   MS first (to outlast the sender's timeout).
 * - GET /hooks/<name> lists what arrived there as JSON ({ headers: {webhook-id, webhook-timestamp,
 *   webhook-signature}, body, answered, at }), in arrival order (`at`: epoch ms on arrival).
 *
 * In a script, `startWebhookReceiver(port, { onRequest })` also hands each request to `onRequest(name,
 * request)` as it arrives (the load run verifies signatures then, inside their timestamp tolerance).
 */
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";

/** Starts a receiver on `port` (0: any free one); resolves with the server and its address. */
export function startWebhookReceiver(port = 2527, { quiet = false, onRequest = undefined } = {}) {
  /** @type {Map<string, {headers: Record<string, string>, body: string, answered: number, at: number}[]>} */
  const received = new Map();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://receiver");
    const name = url.pathname.match(/^\/hooks\/([\w-]{1,100})$/)?.[1];
    const reply = (status, value) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(value));
    };
    if (!name) return reply(404, { error: "not a receiver" });
    const list = received.get(name) ?? received.set(name, []).get(name);
    if (req.method === "GET") return reply(200, list);
    if (req.method !== "POST") return reply(405, { error: "POST or GET" });
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const answered = list.length < Number(url.searchParams.get("fail") ?? 0) ? 500 : 200;
      const h = (k) => String(req.headers[k] ?? "");
      const request = {
        headers: { "webhook-id": h("webhook-id"), "webhook-timestamp": h("webhook-timestamp"), "webhook-signature": h("webhook-signature") },
        body: Buffer.concat(chunks).toString("utf8"),
        answered,
        at: Date.now(),
      };
      list.push(request);
      onRequest?.(name, request);
      if (!quiet) console.log(`webhook ${h("webhook-id")} to ${name}: ${answered}`);
      setTimeout(() => reply(answered, answered === 200 ? { ok: true } : { error: "scripted failure" }), Number(url.searchParams.get("delay") ?? 0));
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${server.address().port}` }));
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.argv[2] ?? 2527);
  startWebhookReceiver(port).then(
    ({ url }) => console.log(`Webhook receiver: ${url}/hooks/<name> (GET lists what arrived)`),
    (e) => {
      console.error(`webhook receiver: cannot listen on 127.0.0.1:${port}: ${e.message}`);
      process.exit(1);
    },
  );
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(0));
}
