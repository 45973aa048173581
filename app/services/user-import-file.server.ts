/**
 * A CSV of users read and checked on its own, before anything is looked up (decision 0089): the file's
 * size, rows and first line, each row with the add-user form's checks, and the repeats of earlier rows.
 * `user-import.server.ts` matches the rows against the company's users and writes them.
 */
import {
  EXTERNAL_ID_MAX,
  E_KEYS_MAX,
  GROUP_KEYS_MAX,
  IMPORT_CHUNK,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  IMPORT_STATUSES,
  KEY_CSV_COLUMNS,
  splitList,
  USER_CSV_COLUMNS,
  USER_IMPORT_MSG as MSG,
  type UserCsvColumn,
} from "~/schemas/user-import";
import { normaliseValue, type FieldDef } from "~/schemas/custom-fields";
import { EKEY_MSG } from "~/schemas/ekeys";
import { FOB_NUMBER_MAX } from "~/schemas/text";
import { autoDisplayName, userFormSchema, type UserInput } from "~/schemas/users";
import { parseCsv, unneutralised, type CsvRecord } from "~/utils/csv";
import { ServiceError } from "~/utils/errors.server";
import { toE164 } from "~/utils/phone";

/** `column`: a user column, or a custom field's key (decision 0095). */
export type Problem = { column: string | null; message: string };

/** The form's fields → the file's columns, for the form schema's field errors. */
const COLUMN_OF: Record<string, UserCsvColumn> = {
  firstName: "first_name",
  lastName: "last_name",
  displayName: "display_name",
  email: "email",
  countryCode: "country_code",
  cell: "phone",
};

/** A row of the file once read: its checked values, or its problems. */
export type CheckedRow = {
  line: number;
  email: string;
  name: string;
  user: UserInput | null;
  /** Left empty in the file: the user's own value stays (a new user: none, active). */
  roleTitle: string | null;
  isInactive: boolean | null;
  externalId: string | null;
  /** The custom fields' values the row gives, normalised, by field id (an empty cell keeps the user's value). */
  custom: Map<number, string>;
  /** The doors named in `e_keys` (empty: the column is absent or the cell empty; the user's e-keys stay). */
  eKeys: string[];
  /** The device groups named in `group_keys` (empty: the column is absent or the cell empty; the user's keys stay). */
  groupKeys: string[];
  /** The fob given with those keys, e-keys and group keys alike (`fob`), or none. */
  fob: string | null;
  problems: Problem[];
};

/** The file read and every row checked on its own and against the rows before it (nothing read from the database). */
export type CheckedFile = { rows: CheckedRow[]; chunks: number };

function refuseFile(status: 413 | 422, message: string): never {
  throw new ServiceError(status, message);
}

/** The values a later row may not repeat, by the line that had them first. */
type Seen = Record<"email" | "externalId" | "phone" | "fob", Map<string, number>>;
type Cells = (column: UserCsvColumn) => string;

/** The fob's shape, as the key form's (`app/schemas/ekeys.ts`). */
const FOB_SHAPE = /^[A-Za-z0-9 _.:-]*$/;

/** The last digits of a typed phone: equal for every way of typing the same number (its E.164 ends with them). */
const phoneTail = (typed: string) => typed.replace(/\D/g, "").slice(-6);

/**
 * Reads the file: size, rows and the header (the template's columns, any order, any case, and any of the
 * company's custom field keys, decision 0095), then
 * each row of `part` (every row when none is given) with the add-user form's own checks (phones to E.164
 * in the row's country, or the company's default one when the cell is empty). A row that repeats an
 * e-mail, an external id or a phone of an earlier row is refused, so the same rows are refused whichever
 * part of the file is being written: the rows before the part are read only for those values (a phone
 * only when its last digits are some row's of the part), and the rows after it not at all.
 */
export function checkFile(csv: string, defaultCountry: string, part?: number, fields: FieldDef[] = []): CheckedFile {
  if (new TextEncoder().encode(csv).byteLength > IMPORT_MAX_BYTES) refuseFile(413, MSG.fileTooLarge);
  const parsed = parseCsv(csv, IMPORT_MAX_ROWS + 1);
  if (!parsed.ok) refuseFile(parsed.problem === "tooManyRows" ? 413 : 422, parsed.problem === "tooManyRows" ? MSG.tooManyRows : MSG.unterminatedQuote);
  const [header, ...records] = parsed.records;
  const names = (header?.cells ?? []).map((c) => c.trim().toLowerCase());
  const index = new Map(names.map((n, i) => [n, i]));
  if (index.size !== names.length || USER_CSV_COLUMNS.some((c) => !index.has(c))) refuseFile(422, MSG.badHeader);
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const customColumns = names.filter((n) => !(USER_CSV_COLUMNS as readonly string[]).includes(n) && !(KEY_CSV_COLUMNS as readonly string[]).includes(n));
  if (customColumns.some((n) => !byKey.has(n))) refuseFile(422, MSG.unknownColumn);
  const custom = customColumns.map((n) => ({ field: byKey.get(n)!, at: index.get(n)! }));
  if (!records.length) refuseFile(422, MSG.noRows);
  const chunks = Math.ceil(records.length / IMPORT_CHUNK);
  if (part !== undefined && part >= chunks) throw new ServiceError(422, MSG.badChunk);
  const cellsOf =
    (record: CsvRecord): Cells =>
    (c) =>
      index.has(c) ? unneutralised(record.cells[index.get(c)!] ?? "").trim() : "";
  const from = part === undefined ? 0 : part * IMPORT_CHUNK;
  const mine = records.slice(from, part === undefined ? undefined : from + IMPORT_CHUNK);
  const seen: Seen = { email: new Map(), externalId: new Map(), phone: new Map(), fob: new Map() };
  const tails = new Set(mine.map((r) => phoneTail(cellsOf(r)("phone"))));
  for (const record of records.slice(0, from)) {
    const cell = cellsOf(record);
    const phone = tails.has(phoneTail(cell("phone"))) ? toE164(cell("country_code") || defaultCountry, cell("phone")) : null;
    remember(seen, record.line, cell("email").toLowerCase(), cell("external_id") || null, phone, cell("fob") || null);
  }
  return { rows: mine.map((r) => checkRow(r, cellsOf(r), names.length, defaultCountry, seen, custom)), chunks };
}

/** Notes a row's e-mail, external id and phone; the problems of those an earlier row already had. */
function remember(seen: Seen, line: number, email: string, externalId: string | null, phone: string | null, fob: string | null): Problem[] {
  const problems: Problem[] = [];
  const repeats = (key: keyof Seen, value: string | null, column: UserCsvColumn, message: string) => {
    if (!value) return;
    if (seen[key].has(value)) problems.push({ column, message });
    else seen[key].set(value, line);
  };
  repeats("email", email, "email", MSG.duplicateEmail);
  repeats("externalId", externalId, "external_id", MSG.duplicateExternalId);
  repeats("phone", phone, "phone", MSG.duplicatePhone);
  repeats("fob", fob, "fob", MSG.duplicateFob);
  return problems;
}

function checkRow(record: CsvRecord, cell: Cells, width: number, defaultCountry: string, seen: Seen, customColumns: { field: FieldDef; at: number }[]): CheckedRow {
  const problems: Problem[] = [];
  if (record.cells.slice(width).some((c) => c.trim() !== "")) problems.push({ column: null, message: MSG.extraCells });
  const firstName = cell("first_name");
  const lastName = cell("last_name");
  const country = cell("country_code") || defaultCountry;
  const parsed = userFormSchema.safeParse({
    firstName,
    lastName,
    displayName: cell("display_name") || autoDisplayName(firstName, lastName),
    email: cell("email"),
    countryCode: country,
    cell: cell("phone"),
  });
  if (!parsed.success) for (const issue of parsed.error.issues) problems.push({ column: COLUMN_OF[String(issue.path[0])] ?? null, message: issue.message });
  const status = cell("status").toLowerCase();
  const isInactive = status === "" ? null : (IMPORT_STATUSES[status] ?? null);
  if (status !== "" && isInactive === null) problems.push({ column: "status", message: MSG.badStatus });
  const externalId = cell("external_id") || null;
  if (externalId && externalId.length > EXTERNAL_ID_MAX) problems.push({ column: "external_id", message: MSG.externalIdTooLong });
  const email = cell("email").toLowerCase();
  // The form's E.164 when the row passed it; the same parse otherwise (a bad e-mail does not hide a repeated phone).
  const phone = parsed.success ? parsed.data.cell : toE164(country, cell("phone"));
  const groupKeys = splitList(cell("group_keys"));
  if (groupKeys.length > GROUP_KEYS_MAX) problems.push({ column: "group_keys", message: MSG.tooManyGroupKeys });
  const eKeys = splitList(cell("e_keys"));
  if (eKeys.length > E_KEYS_MAX) problems.push({ column: "e_keys", message: MSG.tooManyEKeys });
  const fob = cell("fob") || null;
  if (fob && (fob.length > FOB_NUMBER_MAX || !FOB_SHAPE.test(fob))) problems.push({ column: "fob", message: EKEY_MSG.fobNumber });
  else if (fob && !groupKeys.length && !eKeys.length) problems.push({ column: "fob", message: MSG.fobWithoutKeys });
  problems.push(...remember(seen, record.line, email, externalId, phone, fob));
  const custom = new Map<number, string>();
  for (const { field, at } of customColumns) {
    const r = normaliseValue(field, unneutralised(record.cells[at] ?? ""));
    if ("error" in r) problems.push({ column: field.key, message: r.error });
    else if (r.value !== null) custom.set(field.id, r.value);
  }
  return {
    line: record.line,
    email,
    name: parsed.success ? parsed.data.displayName : cell("display_name") || autoDisplayName(firstName, lastName),
    user: problems.length || !parsed.success ? null : parsed.data,
    roleTitle: cell("role") || null,
    isInactive,
    externalId,
    custom,
    eKeys,
    groupKeys,
    fob,
    problems,
  };
}
