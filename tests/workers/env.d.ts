/// <reference types="@cloudflare/vitest-pool-workers/types" />
declare module "cloudflare:test" {
  interface ProvidedEnv extends Env {
    TEST_MIGRATIONS: import("@cloudflare/vitest-pool-workers").D1Migration[];
    GATEWAY_SECRET: string;
  }
}
