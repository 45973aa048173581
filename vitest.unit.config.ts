import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

/** Pure unit tests beside the code (formatters, params, schemas). */
export default defineConfig({
  plugins: [tsconfigPaths()],
  // One module graph per worker, not one per file (isolate: false): the 29 files import the same schemas,
  // i18n and drizzle modules, and transforming them again for every file was most of the suite's CPU
  // (22.8 CPU-s with isolation, 9.4 without, the same 382 tests passing). No unit test mocks a module,
  // stubs a global or fakes timers; a new one that does must restore what it changed.
  test: { include: ["app/**/*.test.ts", "db/**/*.test.ts", "sdk/**/*.test.ts"], environment: "node", isolate: false },
});
