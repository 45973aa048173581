/** Demo logins (db/seed/demo.ts), keyed for tests; shared by the Workers and Playwright suites. */
export const DEMO = {
  root: { companyId: "ROOT", userName: "root@example.com", password: "Root#Demo2026" },
  var: { companyId: "RSL1", userName: "var@reseller.example", password: "Var#Demo2026" },
  acme: { companyId: "ACME", userName: "admin@acme.example", password: "Acme#Demo2026" },
  beta: { companyId: "BETA", userName: "admin@beta.example", password: "Beta#Demo2026" },
  auditor: { companyId: "ACME", userName: "auditor@acme.example", password: "Audit#Demo2026" },
} as const;
export type DemoLogin = keyof typeof DEMO;
