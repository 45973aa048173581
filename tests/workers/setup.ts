import { applyD1Migrations, env } from "cloudflare:test";
import { drizzle } from "drizzle-orm/d1";
import * as schema from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";

// Each test file gets fresh storage: migrate and seed the demo data before it runs.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await seedDemo(drizzle(env.DB, { schema }));
