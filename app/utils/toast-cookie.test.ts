import { describe, expect, it } from "vitest";
import { clearToastCookieHeader, parseToast, readToastCookie, serializeToast, toastCookieHeader, type ToastMessage } from "./toast-cookie";

const saved: ToastMessage = { type: "success", title: "Saved", message: "User saved; invite sent = yes" };

describe("parseToast", () => {
  it("accepts a valid object or its JSON text", () => {
    expect(parseToast(saved)).toEqual(saved);
    expect(parseToast(JSON.stringify(saved))).toEqual(saved);
    expect(parseToast({ type: "error", message: "x" })).toEqual({ type: "error", message: "x" });
  });

  it("drops unknown keys", () => {
    expect(parseToast({ type: "info", message: "m", html: "<b>" })).toEqual({ type: "info", message: "m" });
  });

  it.each([
    null,
    undefined,
    42,
    "not json",
    "{}",
    { type: "warning", message: "m" },
    { type: "info" },
    { type: "info", message: "" },
    { type: "info", message: 5 },
    { type: "info", message: "m", title: 5 },
    { type: "info", message: "x".repeat(501) },
  ])("rejects %j", (value) => {
    expect(parseToast(value)).toBeNull();
  });
});

describe("toast cookie", () => {
  it("round-trips through Set-Cookie and Cookie headers", () => {
    const setCookie = toastCookieHeader(saved);
    expect(setCookie).toMatch(/^toast=[^;\s]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=60; Secure$/);
    const cookieHeader = `session=abc; ${setCookie.split(";")[0]}; other=1`;
    expect(readToastCookie(cookieHeader)).toEqual(saved);
  });

  it("omits Secure on request", () => {
    expect(toastCookieHeader(saved, { secure: false })).not.toContain("Secure");
  });

  it("clears the cookie", () => {
    expect(clearToastCookieHeader()).toBe("toast=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure");
  });

  it.each([null, "", "session=abc", "toast=", "toast=%E0%A4%A", `toast=${serializeToast(saved).slice(0, 10)}`, "mytoast=x"])("reads %j as no toast", (header) => {
    expect(readToastCookie(header)).toBeNull();
  });
});
