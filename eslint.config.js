// Lint rules for the console (TypeScript, React) and the gateway (plain JS checked through JSDoc).
// Formatting is Prettier's job (`npm run format`); these rules look for bugs, not style.
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * The console's layers, top to bottom: routes → api, components → services → schemas, utils → db
 * (docs/ARCHITECTURE.md). A file imports its own layer and the ones below, never one above, whether
 * as `~/layer/…` or as a relative `../layer/…`. `import type` counts too: a lower layer that names an
 * upper layer's type changes whenever the upper one does, so a type both need lives in the lower one.
 * Tests are left out: nothing imports them, and some check one layer against another.
 */
function layerRule(files, above, layer) {
  return {
    files,
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: `^(~/|(\\.\\./)+)(${above.join("|")})(/|$)`,
              message: `${layer} sit below ${above.join(", ")} (routes → api, components → services → schemas, utils → db): move what both need down instead.`,
            },
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  {
    ignores: [
      "build/",
      ".wrangler/",
      ".tmp/",
      "node_modules/",
      "**/node_modules/",
      "core-wasm/pkg/",
      "core-wasm/target/",
      "gateway/data/",
      "test-results/",
      "playwright-report/",
      "worker-configuration.d.ts",
      "sdk/src/schema.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // `_`-prefixed names mark what a signature needs but the body does not use.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true }],
      "@typescript-eslint/consistent-type-imports": ["error", { prefer: "type-imports", fixStyle: "inline-type-imports", disallowTypeAnnotations: false }],
      "@typescript-eslint/ban-ts-comment": ["error", { "ts-ignore": "allow-with-description", "ts-expect-error": "allow-with-description" }],
      // Non-null assertions after a check the compiler cannot follow are common in loaders.
      "@typescript-eslint/no-non-null-assertion": "off",
      "no-empty": ["error", { allowEmptyCatch: true }],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
  layerRule(["app/api/**"], ["routes"], "API endpoints"),
  layerRule(["app/components/**", "app/phone/**"], ["routes", "api"], "Components and the phone app"),
  layerRule(["app/services/**"], ["routes", "api", "components"], "Services"),
  layerRule(["app/schemas/**", "app/utils/**", "app/i18n/**"], ["routes", "api", "components", "services"], "Schemas, utils and i18n"),
  {
    // db/schema.ts is the bottom: it knows nothing of the console (the seeds and first-admin script sit on top of it).
    files: ["db/**"],
    ignores: ["db/seed/**", "db/bootstrap/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ regex: "^(~/|(\\.\\./)+app/)", message: "db/ sits below the console's layers: it imports nothing from app/." }] }],
    },
  },
  {
    files: ["*.{ts,js,mjs}", "scripts/**", "sdk/scripts/**", "sdk/examples/**", "db/**", "tests/**", "core-wasm/**/*.{js,mjs}", "gateway/**/*.{js,mjs}"],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Tests and seeds poke at untyped JSON answers and drizzle's generic batch types.
    files: ["tests/**", "db/seed/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // The gateway is plain JavaScript: its types live in JSDoc and `tsc -p gateway` checks them.
    files: ["gateway/**/*.{js,mjs}", "core-wasm/**/*.{js,mjs}", "tests/gateway/**/*.mjs"],
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true }],
      "@typescript-eslint/consistent-type-imports": "off",
    },
  },
);
