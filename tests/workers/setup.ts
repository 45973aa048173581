import type { D1Migration } from "@cloudflare/vitest-pool-workers";
import { applyD1Migrations, env } from "cloudflare:test";
import { drizzle } from "drizzle-orm/d1";
import * as schema from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { seedGateway } from "../../db/seed/gateway";
import { seedNow } from "./helpers";

// Each test file gets fresh storage: migrate and seed the demo data before it runs.
await applyD1Migrations(env.DB, (env as unknown as { TEST_MIGRATIONS: D1Migration[] }).TEST_MIGRATIONS);
const db = drizzle(env.DB, { schema });
if (await seedDemo(db, { now: seedNow() })) await seedGateway(db, { GATEWAY_SECRET: (env as unknown as { GATEWAY_SECRET: string }).GATEWAY_SECRET });
