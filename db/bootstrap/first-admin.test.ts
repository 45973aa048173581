import { describe, expect, it } from "vitest";
import { firstAdminCheckSql, firstAdminSql, generatePassword, validateFirstAdmin } from "./first-admin";

describe("generatePassword", () => {
  it("meets every password rule", () => {
    for (let i = 0; i < 200; i++) {
      const p = generatePassword();
      expect(p).toHaveLength(20);
      expect(p).toMatch(/[A-Z]/);
      expect(p).toMatch(/[a-z]/);
      expect(p).toMatch(/[0-9]/);
      expect(p).toMatch(/[#?!@$%^&*_-]/);
    }
  });
});

describe("firstAdminSql", () => {
  const admin = {
    companyCode: "ROOT",
    companyName: "O'Brien Platform",
    firstName: "Ana",
    lastName: "O'Neil",
    email: "Ana@Example.com",
    passwordHash: "pbkdf2-sha256$100000$s$h",
    now: 1767225600000,
  };

  it("escapes quotes and lower-cases the e-mail", () => {
    const sql = firstAdminSql(admin);
    expect(sql).toContain("'O''Brien Platform'");
    expect(sql).toContain("'O''Neil, Ana'");
    expect(sql).toContain("'ana@example.com'");
    expect(sql).not.toContain("Ana@Example.com'");
    expect(sql.match(/;\n|;$/g)).toHaveLength(5);
    expect(firstAdminCheckSql(admin)).toContain("upper(companies.code) = 'ROOT'");
  });

  it("validates the options", () => {
    expect(validateFirstAdmin({ ...admin, companyCode: "VVVV" })).toHaveLength(1);
    expect(validateFirstAdmin({ ...admin, email: "nope" })).toHaveLength(1);
    expect(validateFirstAdmin(admin)).toEqual([]);
  });
});
