// Applies nothing but demo data: seeds the local D1 (the one `wrangler dev` uses) when it is empty.
import path from "node:path";
import { drizzle } from "drizzle-orm/d1";
import { Miniflare } from "miniflare";
import * as schema from "../db/schema";
import { DEMO_LOGINS, seedDemo } from "../db/seed/demo";
import { DEMO_BOARD_PASSWORD, seedGateway } from "../db/seed/gateway";
import { wranglerWorkerOptions } from "./console-bundle.mjs";

// PERSIST_TO selects another local state directory (the e2e and bench servers use their own);
// SMTP_PORT the port of the local mail sink the demo mailer delivers to (2525 unless set).
// Miniflare with wrangler.toml's D1 alone: the seed needs no other binding (the Durable Objects are the console's).
const mf = new Miniflare({
  modules: true,
  script: "export default {}",
  d1Databases: wranglerWorkerOptions().d1Databases,
  defaultPersistRoot: path.resolve(process.env.PERSIST_TO ?? ".wrangler/state/v3"),
});
try {
  const db = drizzle(await mf.getD1Database("DB"), { schema });
  const seeded = await seedDemo(db, { smtpPort: process.env.SMTP_PORT ? Number(process.env.SMTP_PORT) : undefined });
  if (seeded) await seedGateway(db, { GATEWAY_SECRET: process.env.GATEWAY_SECRET });
  console.log(seeded ? "Seeded demo data." : "Database already has data; demo seed skipped.");
  console.log("\nDemo logins (company ID / user / password):");
  for (const l of DEMO_LOGINS) console.log(`  ${l.company}  ${l.user.padEnd(24)} ${l.password.padEnd(16)} ${l.who}`);
  console.log(`\nDemo boards: MQTT user = device id (ACME 1-12, BETA 13-16), password ${DEMO_BOARD_PASSWORD}`);
} finally {
  await mf.dispose();
}
