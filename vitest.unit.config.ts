import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

/** Pure unit tests beside the code (formatters, params, schemas). */
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: { include: ["app/**/*.test.ts", "db/**/*.test.ts"], environment: "node" },
});
