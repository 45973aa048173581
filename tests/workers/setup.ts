import type { D1Migration } from "@cloudflare/vitest-pool-workers";
import { applyD1Migrations, env } from "cloudflare:test";
import { drizzle } from "drizzle-orm/d1";
import * as schema from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";

// Each test file gets fresh storage: migrate and seed the demo data before it runs.
await applyD1Migrations(env.DB, (env as unknown as { TEST_MIGRATIONS: D1Migration[] }).TEST_MIGRATIONS);
await seedDemo(drizzle(env.DB, { schema }));
