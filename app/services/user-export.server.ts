/**
 * The company's users as CSV, in the columns the import reads (decision 0089), so an exported file
 * imported again changes nothing. Streamed in pages of EXPORT_PAGE users (a keyset on the id): the
 * 10,000th user costs what the first does and nothing holds the whole list. The company's custom fields
 * (decision 0095) follow the fixed columns, one column each, headed by the field's key. `e_keys` names the
 * doors of the user's permanent full-access e-keys (other e-keys are left out), `group_keys` the user's
 * group keys and `fob` the fob those keys carry when every one carries the same number.
 */
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { EXPORT_CSV_COLUMNS, joinList } from "~/schemas/user-import";
import { fieldsOf, fieldsQuery, type CustomField } from "~/services/custom-fields.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { csvLine } from "~/utils/csv";
import { schema, type Db } from "~/utils/db.server";
import { splitPhone } from "~/utils/phone";
import { liveInCompany } from "~/utils/tenant.server";

export const EXPORT_FILE = "users.csv";
export const TEMPLATE_FILE = "users_template.csv";
/** Users per query of the stream. */
export const EXPORT_PAGE = 1000;

const u = schema.users;
const r = schema.roles;

/** The header line, with the byte-order mark that makes spreadsheet programs read the names as UTF-8. */
const header = (fields: CustomField[]) => `\uFEFF${csvLine([...EXPORT_CSV_COLUMNS, ...fields.map((f) => f.key)])}\r\n`;

/** The user's group keys to live groups. */
const groupKeysOf = sql.raw(`from ekey_assignments e join device_groups g on g.id = e.group_id and g.company_id = e.company_id and g.deleted_at is null
  where e.company_id = users.company_id and e.user_id = users.id and e.is_group = 1`);
/**
 * The user's permanent full-access e-keys to live doors: what `e_keys` gives. Other e-keys (a custom
 * window, one-time) are not expressible in the file and are left out (decision 0089).
 */
const eKeysOf = sql.raw(`from ekey_assignments e join devices d on d.id = e.device_id and d.company_id = e.company_id and d.deleted_at is null
  where e.company_id = users.company_id and e.user_id = users.id and e.is_group = 0 and e.access_type = 'full_access' and e.is_never_end = 1`);

/** The template: the header alone (each column is described on the import page). */
export async function userTemplate(db: Db, auth: Auth): Promise<string> {
  assertCan(auth, "users");
  return header(fieldsOf(await fieldsQuery(db, auth.company.id)));
}

/** Every live user of the caller's company, inactive ones included, by id. */
export function userExportStream(db: Db, auth: Auth): ReadableStream<Uint8Array> {
  assertCan(auth, "users");
  const encoder = new TextEncoder();
  let after = 0;
  let fields: CustomField[] = [];
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      fields = fieldsOf(await fieldsQuery(db, auth.company.id));
      controller.enqueue(encoder.encode(header(fields)));
    },
    async pull(controller) {
      const rows = await db
        .select({
          id: u.id,
          firstName: u.firstName,
          lastName: u.lastName,
          displayName: u.displayName,
          email: u.email,
          phoneNumber: u.phoneNumber,
          role: r.title,
          isInactive: u.isInactive,
          externalId: u.externalId,
          eKeys: sql<string>`(select json_group_array(name) from (select distinct d.full_name as name ${eKeysOf} order by lower(d.full_name), d.full_name))`,
          groupKeys: sql<string>`(select json_group_array(name) from (select distinct g.full_name as name ${groupKeysOf} order by lower(g.full_name), g.full_name))`,
          // The fob when every key the row names (e-keys and group keys alike) carries the same number.
          fob: sql<
            string | null
          >`(select case when count(distinct coalesce(f, '')) = 1 then max(f) end from (select e.fob_device_id as f ${groupKeysOf} union all select e.fob_device_id as f ${eKeysOf}))`,
          customValues: sql<
            string | null
          >`(select json_group_object(field_id, value) from user_field_values where user_field_values.company_id = ${u.companyId} and user_field_values.user_id = ${u.id})`,
        })
        .from(u)
        .leftJoin(r, and(eq(r.id, u.roleId), eq(r.companyId, u.companyId)))
        .where(liveInCompany(u, auth, gt(u.id, after)))
        .orderBy(asc(u.id))
        .limit(EXPORT_PAGE);
      if (rows.length) {
        after = rows[rows.length - 1].id;
        controller.enqueue(encoder.encode(rows.map((x) => exportLine(x, fields) + "\r\n").join("")));
      }
      if (rows.length < EXPORT_PAGE) controller.close();
    },
  });
}

type ExportRow = {
  firstName: string;
  lastName: string;
  displayName: string;
  email: string;
  phoneNumber: string;
  role: string | null;
  isInactive: boolean;
  externalId: string | null;
  /** The names of the doors the user has permanent full-access e-keys to, as a JSON array. */
  eKeys: string;
  /** The names of the groups the user has keys to, as a JSON array. */
  groupKeys: string;
  fob: string | null;
  /** Custom field values as a JSON object of field id → value. */
  customValues: string | null;
};

/** A user in the template's order; the phone as the spec's pair (calling code '034', national digits), which the import reads back. */
function exportLine(x: ExportRow, fields: CustomField[]): string {
  const phone = splitPhone(x.phoneNumber);
  const values: Record<(typeof EXPORT_CSV_COLUMNS)[number], string> = {
    first_name: x.firstName,
    last_name: x.lastName,
    display_name: x.displayName,
    email: x.email,
    country_code: phone.countryCode,
    phone: phone.phoneNumber,
    role: x.role ?? "",
    status: x.isInactive ? "inactive" : "active",
    external_id: x.externalId ?? "",
    e_keys: joinList(JSON.parse(x.eKeys) as string[]),
    group_keys: joinList(JSON.parse(x.groupKeys) as string[]),
    fob: x.fob ?? "",
  };
  const custom = JSON.parse(x.customValues ?? "{}") as Record<string, string>;
  return csvLine([...EXPORT_CSV_COLUMNS.map((c) => values[c]), ...fields.map((f) => custom[String(f.id)] ?? "")]);
}
