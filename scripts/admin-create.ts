// Creates the first platform administrator (and the root company, when it does not exist yet) on
// local D1 or on the deployed D1 through wrangler, with a generated password shown once.
//
//   npm run admin:create -- --local  --email ops@example.com --first-name Ana --last-name Ops
//   npm run admin:create -- --remote --email ops@example.com --first-name Ana --last-name Ops \
//        [--company ROOT] [--company-name "Platform"] [--persist-to DIR (local only)] [--database DB]
//
// Run the migrations first (`npx wrangler d1 migrations apply DB --remote`). Running it again with
// another e-mail adds another administrator to the same root company.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { hashPassword } from "../app/utils/password.server";
import { firstAdminCheckSql, firstAdminSql, generatePassword, validateFirstAdmin } from "../db/bootstrap/first-admin";

const { values } = parseArgs({
  options: {
    local: { type: "boolean", default: false },
    remote: { type: "boolean", default: false },
    "persist-to": { type: "string" },
    database: { type: "string", default: "DB" },
    company: { type: "string", default: "ROOT" },
    "company-name": { type: "string", default: "Platform" },
    email: { type: "string", default: "" },
    "first-name": { type: "string", default: "" },
    "last-name": { type: "string", default: "" },
    help: { type: "boolean", default: false },
  },
});

const usage =
  "usage: npm run admin:create -- --local|--remote --email <address> --first-name <name> --last-name <name> [--company ROOT] [--company-name Platform] [--persist-to DIR] [--database DB]";
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const problems = validateFirstAdmin({
  companyCode: values.company.toUpperCase(),
  companyName: values["company-name"],
  firstName: values["first-name"],
  lastName: values["last-name"],
  email: values.email,
});
if (values.local === values.remote) problems.unshift("choose exactly one of --local or --remote");
if (values["persist-to"] && !values.local) problems.push("--persist-to only applies to --local");
if (problems.length) {
  console.error(problems.map((p) => `error: ${p}`).join("\n") + `\n${usage}`);
  process.exit(2);
}

const target = values.local ? ["--local", ...(values["persist-to"] ? ["--persist-to", values["persist-to"]] : [])] : ["--remote"];
const wrangler = (args: string[]) =>
  execFileSync("npx", ["wrangler", "d1", "execute", values.database, ...target, ...args], {
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    stdio: ["ignore", "pipe", "pipe"],
  });

const admin = {
  companyCode: values.company.toUpperCase(),
  companyName: values["company-name"],
  firstName: values["first-name"].trim(),
  lastName: values["last-name"].trim(),
  email: values.email.trim().toLowerCase(),
};

const password = generatePassword();
const dir = mkdtempSync(join(tmpdir(), "admin-create-"));
const file = join(dir, "first-admin.sql");
try {
  writeFileSync(file, firstAdminSql({ ...admin, passwordHash: await hashPassword(password), now: Date.now() }) + "\n");
  try {
    wrangler(["--file", file, "--yes"]);
  } catch (e) {
    const err = e as { stderr?: string; stdout?: string };
    const text = `${err.stdout ?? ""}${err.stderr ?? ""}`;
    if (/UNIQUE constraint failed: users/i.test(text)) console.error(`error: ${admin.email} already exists in ${admin.companyCode}; nothing was changed for that user.`);
    else console.error(`error: wrangler failed:\n${text}`);
    process.exit(1);
  }
  const out = wrangler(["--command", firstAdminCheckSql(admin), "--json"]);
  const rows = (JSON.parse(out) as { results: { id: number; code: string; type: string }[] }[])[0]?.results ?? [];
  if (!rows.length || rows[0].type !== "root") {
    console.error(`error: ${admin.companyCode} is not the root company (a deployment has one root company; pass its code with --company); no administrator was created.`);
    process.exit(1);
  }
  console.log(`Platform administrator created (${values.local ? "local" : "remote"} D1 ${values.database}).`);
  console.log(`  company ID  ${rows[0].code}`);
  console.log(`  user        ${admin.email}`);
  console.log(`  password    ${password}`);
  console.log("The password is shown only this once and is not stored anywhere in clear. Sign in and change it (Change Password).");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
