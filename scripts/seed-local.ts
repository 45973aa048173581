// Applies nothing but demo data: seeds the local D1 (the one `wrangler dev` uses) when it is empty.
import { drizzle } from "drizzle-orm/d1";
import { getPlatformProxy } from "wrangler";
import * as schema from "../db/schema";
import { DEMO_LOGINS, seedDemo } from "../db/seed/demo";

// PERSIST_TO selects another local state directory (the e2e and bench servers use their own).
const proxy = await getPlatformProxy<Env>({ persist: process.env.PERSIST_TO ? { path: process.env.PERSIST_TO } : true });
try {
  const seeded = await seedDemo(drizzle(proxy.env.DB, { schema }));
  console.log(seeded ? "Seeded demo data." : "Database already has data; demo seed skipped.");
  console.log("\nDemo logins (company ID / user / password):");
  for (const l of DEMO_LOGINS) console.log(`  ${l.company}  ${l.user.padEnd(24)} ${l.password.padEnd(16)} ${l.who}`);
} finally {
  await proxy.dispose();
}
