import { z } from "zod";

/**
 * Users from and to CSV (decision 0089): the columns, the limits and the messages the import's preview,
 * its commit and the admin API share. Client-safe: the import page reads the limits and the columns.
 */

/** The columns the export writes and the import reads, in the template's order. */
export const USER_CSV_COLUMNS = ["first_name", "last_name", "display_name", "email", "country_code", "phone", "role", "status", "external_id"] as const;
/**
 * Columns a file may add (decision 0089): the doors the user gets a permanent full-access e-key to, the
 * device groups the user gets a group key to, and the fob given with those keys. The export and the template write them; a file without them changes no keys.
 */
export const KEY_CSV_COLUMNS = ["e_keys", "group_keys", "fob"] as const;
export type KeyCsvColumn = (typeof KEY_CSV_COLUMNS)[number];
export type UserCsvColumn = (typeof USER_CSV_COLUMNS)[number] | KeyCsvColumn;
/** Every column the export writes, in its order (custom fields follow). */
export const EXPORT_CSV_COLUMNS = [...USER_CSV_COLUMNS, ...KEY_CSV_COLUMNS] as const;
/** What separates the names in a list cell (`e_keys`, `group_keys`); a name holding it is written with a backslash before it. */
export const LIST_SEPARATOR = "|";
/** Names in one row's `group_keys`. */
export const GROUP_KEYS_MAX = 20;
/** Names in one row's `e_keys`. */
export const E_KEYS_MAX = 20;

/** A file larger than this (UTF-8 bytes) is refused whole. */
export const IMPORT_MAX_BYTES = 5_000_000;
/** Rows past the header. */
export const IMPORT_MAX_ROWS = 20_000;
/**
 * Rows written per D1 batch by the commit: one request of the import page's progress bar. At most three
 * statements a row (the user, its audit entry, a role's), so a part stays under D1's 1,000 queries per
 * Worker invocation, whether or not a batch's statements count one by one.
 */
export const IMPORT_CHUNK = 250;
export const EXTERNAL_ID_MAX = 255;

/** The status column: what the export writes; Spanish words are read too. */
export const IMPORT_STATUSES: Record<string, boolean> = { active: false, inactive: true, activo: false, inactivo: true };

/** The spec-style English texts; the console shows them through the `userImport` namespace. */
export const USER_IMPORT_MSG = {
  csvRequired: "Choose a CSV file",
  fileTooLarge: "The file is larger than 5 MB",
  tooManyRows: "The file has more than 20,000 rows",
  noRows: "The file has no users below its first line",
  unterminatedQuote: "A quoted cell is never closed",
  badHeader: "The first line must name these columns, in any order: first_name, last_name, display_name, email, country_code, phone, role, status, external_id",
  unknownColumn: "The first line names a column that is neither a user column nor a custom field's key",
  extraCells: "This row has more cells than the first line names",
  duplicateEmail: "This e-mail is in an earlier row of the file",
  duplicateExternalId: "This external id is in an earlier row of the file",
  duplicatePhone: "This phone number is in an earlier row of the file",
  sameUserTwice: "An earlier row of the file changes the same user",
  badStatus: "Status must be active or inactive",
  externalIdTooLong: "External id is too long (at most 255 characters)",
  externalIdConflict: "This e-mail belongs to a user with another external id",
  emailTaken: "This email already exists in this company",
  phoneTaken: "This phone number already exists in this company",
  unknownRole: "No role of this company has this name",
  noRoleRight: "You may not give roles",
  roleEscalation: "You cannot grant a module or permission you do not hold",
  ownRole: "You cannot change your own role",
  superAdminOnly: "Only a super admin can change a super admin",
  notSelf: "You cannot deactivate your own account",
  noAddRight: "You may not add users",
  noModifyRight: "You may not change users",
  badChunk: "There is no such part of the file",
  imported: "Users imported",
  unknownGroup: "No device group of this company has this name",
  ambiguousGroup: "Several device groups of this company have this name",
  groupDeactivated: "This device group is deactivated: it takes no new keys",
  tooManyGroupKeys: "At most 20 group keys in a row",
  unknownDoor: "No door of this company has this name",
  ambiguousDoor: "Several doors of this company have this name",
  doorNotConfigured: "This door is not configured: it takes no new keys",
  tooManyEKeys: "At most 20 e-keys in a row",
  fobWithoutKeys: "A fob is given with keys: name the doors in e_keys or the device groups in group_keys",
  duplicateFob: "This fob number is given to another user in an earlier row of the file",
  noKeyRight: "You may not give keys",
  noFobRight: "You may not change keys",
} as const;

const csvText = z.string({ required_error: USER_IMPORT_MSG.csvRequired, invalid_type_error: USER_IMPORT_MSG.csvRequired }).min(1, USER_IMPORT_MSG.csvRequired);

/** POST user/importUsersPreview: the file's text (its size is checked by the service, in bytes). */
export const importPreviewBody = z.object({ csv: csvText });

/** POST user/importUsers: the file again; `chunk` writes only that part (IMPORT_CHUNK rows), without it every part in turn. */
export const importCommitBody = z.object({
  csv: csvText,
  chunk: z.coerce.number({ invalid_type_error: USER_IMPORT_MSG.badChunk }).int(USER_IMPORT_MSG.badChunk).min(0, USER_IMPORT_MSG.badChunk).optional(),
});

/** The import page's posts: a preview, or one part of the commit. */
export const importFormSchema = z.discriminatedUnion("intent", [
  importPreviewBody.extend({ intent: z.literal("preview") }),
  importCommitBody.extend({ intent: z.literal("commit"), chunk: z.coerce.number().int().min(0) }),
]);

/** A list cell (`e_keys`, `group_keys`) split at unescaped separators, each name trimmed, empty ones dropped, repeats (any case) once. */
export function splitList(cell: string): string[] {
  const names: string[] = [];
  let current = "";
  for (let i = 0; i < cell.length; i++) {
    const c = cell[i];
    if (c === "\\" && (cell[i + 1] === LIST_SEPARATOR || cell[i + 1] === "\\")) current += cell[++i];
    else if (c === LIST_SEPARATOR) {
      names.push(current);
      current = "";
    } else current += c;
  }
  names.push(current);
  const seen = new Set<string>();
  return names.map((n) => n.trim()).filter((n) => n && !seen.has(n.toLowerCase()) && seen.add(n.toLowerCase()));
}

/** Names joined into one list cell, a separator or backslash inside a name escaped: `splitList` reads it back. */
export const joinList = (names: string[]): string => names.map((n) => n.replace(/[\\|]/g, (c) => `\\${c}`)).join(LIST_SEPARATOR);

/** What one row will do (or did). */
export type ImportOutcome = "create" | "change" | "unchanged" | "refuse";

/** One row of the preview: its line in the file, who it names, and why it is refused or what it changes. */
export type ImportRow = {
  line: number;
  outcome: ImportOutcome;
  email: string;
  name: string;
  /** The columns a change writes (a custom field's column is its key, decision 0095). */
  changes?: string[];
  /** Refusals: the column (when one is at fault) and the message, English (translated by the page). */
  errors?: { column: string | null; message: string }[];
};

export type ImportCounts = { create: number; change: number; unchanged: number; refuse: number };
