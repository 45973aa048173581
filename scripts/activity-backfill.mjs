/**
 * `npm run activity:backfill`: moves every company's activity log from D1 into its own store, through the
 * console's `POST /api/admin/platform/backfillActivityLogs` (docs/decisions/0047 and 0048): each store
 * copies its company's rows, then they are deleted from D1. Safe to stop and run again: each step resumes
 * where the last one stopped, never copies a row twice and never deletes one its store does not hold.
 *
 *   CONSOLE_URL   the console (default http://127.0.0.1:8787, what `npm start` serves)
 *   ROOT_TOKEN    a platform root token, or ROOT_COMPANY (default ROOT), ROOT_EMAIL and ROOT_PASSWORD to sign in
 *   AFTER_COMPANY resume after this company id (each step prints where it is)
 */
import { pathToFileURL } from "node:url";

async function call(base, path, body, token) {
  const res = await fetch(`${base}/api/admin${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: token } : {}) },
    body: JSON.stringify(body),
  });
  const answer = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${path}: ${res.status} ${answer.message ?? res.statusText}`);
  return answer;
}

/** A platform root's API token. */
export async function rootToken(base, { companyId = "ROOT", userName, password }) {
  return (await call(base, "/user/login", { companyId, userName, password })).token;
}

/** Runs the backfill to its end; `onCompany` sees each company's step. Returns the rows copied. */
export async function backfill(base, token, { after = 0, onCompany = () => {} } = {}) {
  let copied = 0;
  for (let next = after; next !== null;) {
    const { payload } = await call(base, "/platform/backfillActivityLogs", { afterCompanyId: next, companies: 10 }, token);
    for (const c of payload.companies) {
      copied += c.copied;
      onCompany(c);
    }
    next = payload.next;
  }
  return copied;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const base = (process.env.CONSOLE_URL ?? "http://127.0.0.1:8787").replace(/\/$/, "");
  const { ROOT_TOKEN, ROOT_EMAIL, ROOT_PASSWORD, ROOT_COMPANY } = process.env;
  if (!ROOT_TOKEN && !(ROOT_EMAIL && ROOT_PASSWORD)) {
    console.error("Set ROOT_TOKEN, or ROOT_EMAIL and ROOT_PASSWORD (and ROOT_COMPANY if it is not ROOT)");
    process.exit(2);
  }
  const token = ROOT_TOKEN ?? (await rootToken(base, { companyId: ROOT_COMPANY, userName: ROOT_EMAIL, password: ROOT_PASSWORD }));
  const started = Date.now();
  const copied = await backfill(base, token, {
    after: Number(process.env.AFTER_COMPANY ?? 0),
    onCompany: (c) =>
      console.log(`company ${c.companyId}: ${c.copied} rows copied, ${c.deleted} deleted from D1, ${c.rows} in its store (${c.bytes} bytes)${c.done ? "" : ", continuing"}`),
  });
  console.log(`Done: ${copied} rows copied in ${((Date.now() - started) / 1000).toFixed(1)} s; every company's store holds its whole log, and D1 what was written meanwhile.`);
}
