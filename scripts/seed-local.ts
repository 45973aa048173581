// Applies nothing but demo data: seeds the local D1 (the one `wrangler dev` uses) when it is empty.
import { drizzle } from "drizzle-orm/d1";
import * as schema from "../db/schema";
import { DEMO_LOGINS, seedDemo } from "../db/seed/demo";
import { DEMO_BOARD_PASSWORD, seedGateway } from "../db/seed/gateway";
import { openLocalD1 } from "./local-d1";
import { seedNow } from "./seed-now";

// PERSIST_TO selects another local state directory (the e2e and bench servers use their own);
// SMTP_PORT the port of the local mail sink the demo mailer delivers to (2525 unless set); SEED_NOW the
// instant every seeded date is relative to (scripts/seed-now.ts).
const local = await openLocalD1();
try {
  const db = drizzle(local.db, { schema });
  const seeded = await seedDemo(db, { now: seedNow(), smtpPort: process.env.SMTP_PORT ? Number(process.env.SMTP_PORT) : undefined });
  if (seeded) await seedGateway(db, { GATEWAY_SECRET: process.env.GATEWAY_SECRET });
  console.log(seeded ? "Seeded demo data." : "Database already has data; demo seed skipped.");
  console.log("\nDemo logins (company ID / user / password):");
  for (const l of DEMO_LOGINS) console.log(`  ${l.company}  ${l.user.padEnd(24)} ${l.password.padEnd(16)} ${l.who}`);
  console.log(`\nDemo boards: MQTT user = device id (ACME 1-12, BETA 13-16), password ${DEMO_BOARD_PASSWORD}`);
} finally {
  await local.dispose();
}
