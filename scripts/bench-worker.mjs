// Serves the built console over a local D1 state directory like `wrangler dev`, but without the
// devtools inspector: `wrangler dev` subscribes to the Worker's network events (every D1 query is
// one) and keeps them in its inspector proxy until a debugger attaches, so a long download there
// measures that buffer instead of the Worker. Usage: node scripts/bench-worker.mjs <dir> <port>.
// Prints "ready <url>" once it answers; stops on SIGTERM or SIGINT.
import { unstable_startWorker } from "wrangler";

const [dir, port] = process.argv.slice(2);
if (!dir || !port) throw new Error("usage: node scripts/bench-worker.mjs <persist dir> <port>");
const worker = await unstable_startWorker({
  config: "wrangler.toml",
  dev: { persist: dir, watch: false, logLevel: "error", inspector: false, server: { hostname: "127.0.0.1", port: Number(port) } },
});
await worker.ready;
console.log(`ready ${await worker.url}`);
const stop = async () => {
  await worker.dispose();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
