/**
 * The first platform administrator of a fresh deployment, as SQL for `wrangler d1 execute`
 * (scripts/admin-create.ts). Idempotent for the company and its role: a second run adds another
 * administrator to the same root company; a second run with the same e-mail fails on the users'
 * unique index and changes nothing.
 */
import type { ModuleKey } from "../../app/utils/permissions";

export const PLATFORM_ROLE = "Platform Admin";
/** What the platform administrator's role grants (the platform icon set, plus users to add more admins). */
export const PLATFORM_MODULES: readonly ModuleKey[] = ["company", "role", "deviceType", "users", "change_password", "var_panel", "billing_portal", "support"];

export type FirstAdmin = {
  companyCode: string;
  companyName: string;
  firstName: string;
  lastName: string;
  email: string;
  passwordHash: string;
  now: number;
};

const q = (s: string) => `'${s.replaceAll("'", "''")}'`;

const SPECIALS = "#?!@$%^&*_-";
const SETS = ["ABCDEFGHJKLMNPQRSTUVWXYZ", "abcdefghijkmnopqrstuvwxyz", "23456789", SPECIALS];

/** A 20-character password with every class the password rules ask for; `random` gives [0, 1). */
export function generatePassword(random: () => number = cryptoRandom, length = 20): string {
  const all = SETS.join("");
  const chars = SETS.map((set) => set[Math.floor(random() * set.length)]);
  while (chars.length < length) chars.push(all[Math.floor(random() * all.length)]);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join("");
}

function cryptoRandom(): number {
  const a = new Uint32Array(1);
  crypto.getRandomValues(a);
  return a[0] / 2 ** 32;
}

export function validateFirstAdmin(a: Omit<FirstAdmin, "passwordHash" | "now">): string[] {
  const errors: string[] = [];
  if (!/^[A-UW-Z0-9]{4}$/.test(a.companyCode)) errors.push("--company must be 4 characters: upper-case letters except V, and digits");
  if (!a.companyName.trim()) errors.push("--company-name is required");
  if (!a.firstName.trim() || !a.lastName.trim()) errors.push("--first-name and --last-name are required");
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(a.email)) errors.push("--email must be an e-mail address");
  return errors;
}

/**
 * Statements, in order. The root company is created only when there is none yet; the user insert
 * only happens when the code names the root company.
 */
export function firstAdminSql(a: FirstAdmin): string {
  const code = q(a.companyCode.toUpperCase());
  const email = q(a.email.toLowerCase());
  const company = `(SELECT id FROM companies WHERE upper(code) = ${code} AND type = 'root' AND deleted_at IS NULL)`;
  const role = `(SELECT id FROM roles WHERE company_id = ${company} AND role_title = ${q(PLATFORM_ROLE)})`;
  return [
    `INSERT INTO companies (code, name, type, parent_id, poc_first_name, poc_last_name, poc_email, created_at, updated_at)
  SELECT ${code}, ${q(a.companyName)}, 'root', NULL, ${q(a.firstName)}, ${q(a.lastName)}, ${email}, ${a.now}, ${a.now}
  WHERE NOT EXISTS (SELECT 1 FROM companies WHERE upper(code) = ${code})
    AND NOT EXISTS (SELECT 1 FROM companies WHERE type = 'root' AND deleted_at IS NULL);`,
    `INSERT INTO roles (company_id, role_title, role_description, permission_all, permission_add, permission_modify, permission_view, permission_delete, created_at, updated_at)
  SELECT ${company}, ${q(PLATFORM_ROLE)}, 'Platform administration', 1, 1, 1, 1, 1, ${a.now}, ${a.now}
  WHERE ${company} IS NOT NULL AND ${role} IS NULL;`,
    `INSERT OR IGNORE INTO role_modules (role_id, company_id, module_key)
  SELECT ${role}, ${company}, key FROM permission_modules WHERE key IN (${PLATFORM_MODULES.map(q).join(", ")}) AND ${role} IS NOT NULL;`,
    `INSERT INTO users (company_id, role_id, first_name, last_name, display_name, email, is_super_admin, is_sentinel, password_hash, password_changed_at, created_at, updated_at)
  SELECT ${company}, ${role}, ${q(a.firstName)}, ${q(a.lastName)}, ${q(`${a.lastName}, ${a.firstName}`)}, ${email}, 1, 1, ${q(a.passwordHash)}, ${a.now}, ${a.now}, ${a.now}
  WHERE ${role} IS NOT NULL;`,
    `INSERT INTO activity_logs (company_id, activity_type_id, operation_type, target_user_id, summary, details_json, activity_timestamp)
  SELECT ${company}, (SELECT id FROM activity_types WHERE name = 'User Created'), 'Admin', id, ${q(`${a.email.toLowerCase()} (first platform administrator, created by the operator command)`)}, '{}', ${a.now}
  FROM users WHERE company_id = ${company} AND email = ${email} AND deleted_at IS NULL AND created_at = ${a.now};`,
  ].join("\n");
}

/** The check run afterwards: the new user's row, if it exists in a root company. */
export function firstAdminCheckSql(a: Pick<FirstAdmin, "companyCode" | "email">): string {
  return `SELECT users.id AS id, companies.code AS code, companies.type AS type FROM users JOIN companies ON companies.id = users.company_id WHERE upper(companies.code) = ${q(a.companyCode.toUpperCase())} AND users.email = ${q(a.email.toLowerCase())} AND users.deleted_at IS NULL`;
}
