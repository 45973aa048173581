import { describe, expect, it } from "vitest";
import { configuredOrigin, publicOrigin } from "./origin.server";

const env = (vars: Record<string, string>) => vars as unknown as Env;
const request = new Request("http://attacker.example/forgotPassword");

describe("the console's own address for links in mail", () => {
  it("is PUBLIC_ORIGIN's origin, never the request's host", () => {
    expect(publicOrigin(env({ ENVIRONMENT: "production", PUBLIC_ORIGIN: "https://console.example/x" }), request)).toBe("https://console.example");
    expect(configuredOrigin(env({ ENVIRONMENT: "production", PUBLIC_ORIGIN: "https://console.example" }))).toBe("https://console.example");
  });

  it("is refused in production while PUBLIC_ORIGIN is unset or empty (wrangler.toml's default)", () => {
    expect(() => publicOrigin(env({ ENVIRONMENT: "production", PUBLIC_ORIGIN: "" }), request)).toThrow("PUBLIC_ORIGIN must be configured in production");
    expect(() => configuredOrigin(env({ ENVIRONMENT: "production" }))).toThrow("PUBLIC_ORIGIN must be configured in production");
  });

  it("falls back to the request's own URL only for a local runner without it", () => {
    expect(publicOrigin(env({ ENVIRONMENT: "development", PUBLIC_ORIGIN: "" }), request)).toBe("http://attacker.example");
    expect(configuredOrigin(env({ ENVIRONMENT: "development" }))).toBeUndefined();
  });

  it("names a PUBLIC_ORIGIN that is not a URL", () => {
    expect(() => configuredOrigin(env({ ENVIRONMENT: "production", PUBLIC_ORIGIN: "console" }))).toThrow("PUBLIC_ORIGIN is not a URL: console");
  });
});
