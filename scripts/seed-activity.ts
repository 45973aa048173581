// Fills one company's activity log to ACTIVITY_ROWS rows (default 1,000,000) for bench:activity:
// device events spread over the ACTIVITY_DAYS days (default 365) before the seed instant (scripts/seed-now.ts), a tenth of them
// denials with a gateway reason code, written by INSERT … SELECT over a counter in chunks so no
// statement holds the whole set.
// ACTIVITY_COMPANY (default ACME); PERSIST_TO selects another local state directory.
import { openLocalD1 } from "./local-d1";
import { HISTORY_ALERTED } from "../db/seed/batch";
import { seedNow } from "./seed-now";

const code = (process.env.ACTIVITY_COMPANY ?? "ACME").toUpperCase();
const rows = Number(process.env.ACTIVITY_ROWS ?? 1_000_000);
const CHUNK = 50_000;
const SPAN = Number(process.env.ACTIVITY_DAYS ?? 365) * 86_400_000;
const START = seedNow() - SPAN;
const DENIALS = ["no_key", "outside_schedule", "expired", "unknown_credential", "user_inactive"];

const local = await openLocalD1();
try {
  const db = local.db;
  const company = await db.prepare("select id from companies where code = ?").bind(code).first<{ id: number }>();
  if (!company) throw new Error(`No company ${code}: seed the demo data first (npm run db:seed).`);
  const ids = async (table: string) =>
    JSON.stringify((await db.prepare(`select id from ${table} where company_id = ? order by id`).bind(company.id).all<{ id: number }>()).results.map((r) => r.id));
  const [users, devices, groups] = [await ids("users"), await ids("devices"), await ids("device_groups")];
  // Device activities only, and not "Scheduled Open Started" (its trigger feeds the gateways).
  const types = JSON.stringify(
    (await db.prepare("select id from activity_types where type = 'Device' and name <> 'Scheduled Open Started' order by id").all<{ id: number }>()).results.map((r) => r.id),
  );
  const denied = (await db.prepare("select id from activity_types where name = 'Access Denied'").first<{ id: number }>())!.id;
  const { n } = (await db.prepare("select count(*) n from activity_logs where company_id = ?").bind(company.id).first<{ n: number }>())!;
  const started = performance.now();
  for (let from = n; from < rows; from += CHUNK) {
    const to = Math.min(rows, from + CHUNK);
    await db
      .prepare(
        `with recursive c(i) as (select cast(?1 as integer) union all select i + 1 from c where i + 1 < ?2)
         insert into activity_logs (company_id, activity_type_id, operation_type, created_by_user_id, target_user_id, target_device_id,
           target_device_group_id, summary, details_json, activity_timestamp, created_at)
         select cast(?3 as integer), t, 'Device', u, u, d, case when i % 4 = 0 then (select value from json_each(?6) where key = i % json_array_length(?6)) end,
           case when t = ?8 then 'Access denied' else 'Device event' end,
           case when t = ?8 then json_object('type', 'access.denied', 'code', json_extract(?9, '$[' || (i % 5) || ']')) else '{}' end,
           cast(?10 + i * ?11 as integer), cast(?10 + i * ?11 as integer)
         from (select i,
                 case when i % 10 = 0 then ?8 else (select value from json_each(?7) where key = i % json_array_length(?7)) end t,
                 (select value from json_each(?4) where key = i % json_array_length(?4)) u,
                 (select value from json_each(?5) where key = i % json_array_length(?5)) d
               from c)`,
      )
      .bind(from, to, company.id, users, devices, groups, types, denied, JSON.stringify(DENIALS), START, Math.floor(SPAN / rows))
      .run();
    process.stdout.write(`\r${code}: ${to} activity rows`);
  }
  await db.prepare(HISTORY_ALERTED).run();
  console.log(`\n${code} has ${rows} activity rows (${((performance.now() - started) / 1000).toFixed(1)} s).`);
} finally {
  await local.dispose();
}
