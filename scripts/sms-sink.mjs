/**
 * A local text-message provider for `npm start` and the tests: a real HTTP server on 127.0.0.1 that
 * speaks the Twilio-compatible REST call the console sends (app/services/sms/sender.server.ts), prints
 * each message and keeps it. It never sends anything on.
 *
 *   node scripts/sms-sink.mjs [port=2526]
 *
 * - POST /2010-04-01/Accounts/<sid>/Messages.json (form To, From, Body; basic auth <sid>:<token>):
 *   201 with the message's sid. Numbers under +999 (no country has it) are refused with 400, as a
 *   provider refuses an unusable number, so tests can see a delivery failure.
 * - GET /messages lists what arrived as JSON ({ to, from, body, sid }); DELETE /messages forgets it.
 */
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";

/** Starts a sink on `port` (0: any free one); resolves with the server and its address. */
export function startSmsSink(port = 2526, { quiet = false } = {}) {
  let received = [];
  const server = createServer((req, res) => {
    const reply = (status, value) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(value));
    };
    if (req.url === "/messages") {
      if (req.method === "DELETE") received = [];
      return reply(200, received);
    }
    const account = req.url?.match(/^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/)?.[1];
    if (req.method !== "POST" || !account) return reply(404, { code: 20404, message: "The requested resource was not found" });
    const auth = Buffer.from((req.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString();
    if (!auth.startsWith(`${decodeURIComponent(account)}:`)) return reply(401, { code: 20003, message: "Authentication Error" });
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
      const message = { to: form.get("To") ?? "", from: form.get("From") ?? "", body: form.get("Body") ?? "" };
      if (!/^\+[1-9]\d{6,14}$/.test(message.to) || message.to.startsWith("+999")) {
        return reply(400, { code: 21211, message: `The 'To' number ${message.to} is not a valid phone number.` });
      }
      const sid = `SM${crypto.randomUUID().replace(/-/g, "")}`;
      received.push({ ...message, sid });
      if (!quiet) console.log(`\n--- text to ${message.to}\n${message.body}\n---`);
      reply(201, { sid, status: "queued", to: message.to, from: message.from, body: message.body });
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${server.address().port}` }));
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.argv[2] ?? 2526);
  startSmsSink(port).then(
    ({ url }) => console.log(`Text-message sink: ${url} (texts are printed here, never sent on; ${url}/messages lists them)`),
    (e) => {
      console.error(`sms sink: cannot listen on 127.0.0.1:${port}: ${e.message}`);
      process.exit(1);
    },
  );
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(0));
}
