import { describe, expect, it } from "vitest";
import { AtRestKeyMissing, isSealed, openSecret, sealSecret } from "./at-rest.server";

describe("secrets at rest", () => {
  it("seals under the key and opens again; a plain value from before reads as it is", async () => {
    const env = { MAILER_SECRET: "a long random test key", ENVIRONMENT: "production" };
    const sealed = await sealSecret(env, "whsec_abc");
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain("abc");
    expect(await openSecret(env, sealed)).toBe("whsec_abc");
    expect(await openSecret(env, "whsec_plain")).toBe("whsec_plain");
    await expect(openSecret({ MAILER_SECRET: "another key" }, sealed)).rejects.toThrow();
  });

  it("refuses to seal in production without the key, and uses a development key elsewhere", async () => {
    await expect(sealSecret({ ENVIRONMENT: "production" }, "x")).rejects.toBeInstanceOf(AtRestKeyMissing);
    expect(await openSecret({ ENVIRONMENT: "test" }, await sealSecret({ ENVIRONMENT: "development" }, "x"))).toBe("x");
  });
});
