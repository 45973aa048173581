// Adds the scale data set (db/seed/scale.ts) to one company of the local D1: SCALE_COMPANY (default ACME).
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { openLocalD1 } from "./local-d1";
import * as schema from "../db/schema";
import { SCALE, seedScale } from "../db/seed/scale";
import { seedNow } from "./seed-now";

const code = (process.env.SCALE_COMPANY ?? "ACME").toUpperCase();
// PERSIST_TO selects another local state directory, as in scripts/seed-local.ts.
const local = await openLocalD1();
try {
  const db = drizzle(local.db, { schema });
  const company = await db.query.companies.findFirst({ where: eq(schema.companies.code, code) });
  if (!company) throw new Error(`No company ${code}: seed the demo data first (npm run db:seed).`);
  const started = performance.now();
  const seeded = await seedScale(db, company.id, seedNow());
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    seeded ? `Added ${SCALE.users} users, ${SCALE.devices} devices and ${SCALE.groups} groups to ${code} in ${seconds} s.` : `${code} already has the scale data; nothing added.`,
  );
} finally {
  await local.dispose();
}
