import { describe, expect, it } from "vitest";
import { hashSecret, newSecret, verifySecret } from "./secret-hash.server";

// The same vector is checked by the gateway (gateway/test/acl.test.js), so both sides agree on the format.
const SALT = Uint8Array.from({ length: 16 }, (_, i) => i);
const VECTOR = "hmac-sha256$AAECAwQFBgcICQoLDA0ODw==$z6niL/MiHqujjV3CHonKMh98/g2v8fUtHTo7qAzmNV8=";

describe("issued secrets", () => {
  it("hashes into the gateway's hmac-sha256 format", async () => {
    expect(await hashSecret("Board#Demo2026", SALT)).toBe(VECTOR);
  });

  it("salts every hash afresh", async () => {
    const [a, b] = await Promise.all([hashSecret("same"), hashSecret("same")]);
    expect(a).toMatch(/^hmac-sha256\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(a).not.toBe(b);
  });

  it("verifies the secret and nothing else", async () => {
    expect(await verifySecret("Board#Demo2026", VECTOR)).toBe(true);
    expect(await verifySecret("Board#Demo2027", VECTOR)).toBe(false);
    expect(await verifySecret("Board#Demo2026", "pbkdf2-sha256$x$y")).toBe(false);
  });

  it("issues 32 random bytes as base64url", () => {
    const s = newSecret();
    expect(s).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newSecret()).not.toBe(s);
  });
});
