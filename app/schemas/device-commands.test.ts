import { describe, expect, it } from "vitest";
import { UNLOCK_TTL_MS, unlockTtlFor } from "./device-commands";

describe("an unlock's time to answer", () => {
  it("is 60 s, shortened only by TEST_UNLOCK_TTL_MS under ENVIRONMENT=test", () => {
    expect(UNLOCK_TTL_MS).toBe(60_000);
    expect(unlockTtlFor({ ENVIRONMENT: "test", TEST_UNLOCK_TTL_MS: "20000" })).toBe(20_000);
    expect(unlockTtlFor({ ENVIRONMENT: "production", TEST_UNLOCK_TTL_MS: "20000" })).toBe(60_000);
    expect(unlockTtlFor({ ENVIRONMENT: "development", TEST_UNLOCK_TTL_MS: "20000" })).toBe(60_000);
    expect(unlockTtlFor({ TEST_UNLOCK_TTL_MS: "20000" })).toBe(60_000);
    expect(unlockTtlFor({ ENVIRONMENT: "test" })).toBe(60_000);
    for (const bad of ["soon", "0", "-5", "1e400", "", "2.5"]) expect(unlockTtlFor({ ENVIRONMENT: "test", TEST_UNLOCK_TTL_MS: bad })).toBe(60_000);
  });
});
