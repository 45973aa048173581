import { z } from "zod";
import { IMPORT_CHUNK, IMPORT_MAX_ROWS, importCommitBody, importPreviewBody, USER_CSV_COLUMNS } from "~/schemas/user-import";
import { EXPORT_FILE, TEMPLATE_FILE, userExportStream, userTemplate } from "~/services/user-export.server";
import { commitUserImport, previewUserImport } from "~/services/user-import.server";
import { csvAttachment } from "~/utils/http.server";
import { endpoint } from "../define.server";

/** Users to and from CSV (decision 0089): the preview, the commit by parts, and the export in the same columns. */
const tag = "Users";
const COLUMNS = USER_CSV_COLUMNS.join(", ");
const FILE_RULES =
  `\`csv\` is the file's text: UTF-8 (a byte-order mark is dropped), separated by ',' or ';' (detected from the first line), quoted as RFC 4180. ` +
  `The first line names the columns ${COLUMNS}, in any order, and may add a column per custom field headed by its key (decision 0095; a value in the field's type, an empty cell keeps the user's value; a required field a new user lacks refuses the row). At most 5 MB (413) and ${IMPORT_MAX_ROWS.toLocaleString("en")} rows (413); a bad first line or an unclosed quote is 422. ` +
  "Optional columns e_keys (door names separated by '|', a '|' inside a name written '\\|'; at most 20), group_keys (device group names, written the same way; at most 20) and fob (one fob number): each named door the user has no e-key to gets a permanent full-access e-key, and each named group the user has no key to gets a group key on the group's schedule from the company's today, never ending, both carrying the fob; the fob also goes on the user's keys to those doors and groups that have none. Keys are only added, never removed or changed. An unknown door or group, a name two doors or two groups share, a door not configured or a deactivated group for a new key, a fob another user holds or an earlier row gives, and a new key without the users add right refuse the row. " +
  "A row matches a live user by external_id, else by email; an empty role, status or external_id leaves the user's own; country_code is a calling code ('034', '+34') or a region ('ES'), the company's default when empty, and phone is national in it or international ('+…'); status is active or inactive.";

const counts = z.object({ create: z.number(), change: z.number(), unchanged: z.number(), refuse: z.number() });
const columnEnum = z.string().describe(`One of ${COLUMNS}, e_keys, group_keys, fob, or a custom field's key (decision 0095)`);
const importRow = z.object({
  line: z.number().describe("The row's line in the file (the header is line 1)"),
  outcome: z.enum(["create", "change", "unchanged", "refuse"]),
  email: z.string(),
  name: z.string(),
  changes: z.array(columnEnum).optional().describe("The columns a change writes"),
  errors: z
    .array(z.object({ column: columnEnum.nullable(), message: z.string() }))
    .optional()
    .describe("Why the row is refused (English texts)"),
});

export const userImportEndpoints = [
  endpoint({
    method: "POST",
    path: "/user/importUsersPreview",
    tag,
    summary: `What importing a CSV of users would do, row by row; writes nothing. ${FILE_RULES} The answer counts the rows to create, change, leave unchanged and refuse, lists every row but the unchanged ones (a refused row with each reason), and gives \`chunks\`, the number of parts importUsers writes.`,
    auth: "token",
    permission: { modules: "users", action: ["add", "modify"] },
    body: importPreviewBody,
    bodyRequired: true,
    response: z.object({ message: z.string(), payload: z.object({ counts, chunks: z.number(), rows: z.array(importRow) }) }),
    async handler({ db, auth, body }) {
      return { payload: await previewUserImport(db, auth, body.csv) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/importUsers",
    tag,
    summary: `Writes part \`chunk\` (0 to chunks − 1; ${IMPORT_CHUNK} rows each) of a CSV of users in one batch, with the preview's checks run again: call it for each part in turn after importUsersPreview. The same file imported again changes nothing. Created users get no invitation (bulkResendInviteMail sends them). ${FILE_RULES} 422 for a chunk past the last.`,
    auth: "token",
    permission: { modules: "users", action: ["add", "modify"] },
    body: importCommitBody.required({ chunk: true }),
    bodyRequired: true,
    response: z.object({ message: z.string(), payload: z.object({ chunk: z.number(), chunks: z.number(), counts }) }),
    async handler({ db, auth, core, body, now }) {
      const r = await commitUserImport(db, auth, core, body.csv, body.chunk, now);
      return { message: r.message, payload: { chunk: r.chunk, chunks: r.chunks, counts: r.counts } };
    },
  }),
  endpoint({
    method: "GET",
    path: "/user/exportUsers",
    tag,
    summary: `Every live user of the company (inactive ones included) as CSV in the columns importUsers reads (${COLUMNS}, e_keys with the door names of the user's permanent full-access e-keys (e-keys with a custom window or one-time are left out), group_keys with the names of the user's group keys, fob when every one of those keys carries the same fob number), streamed; cells a spreadsheet would run as formulas start with an apostrophe. \`template=true\`: the header line alone.`,
    auth: "token",
    permission: { modules: "users" },
    file: "text/csv",
    query: z.object({ template: z.enum(["true", "false"]).optional() }),
    async handler({ db, auth, query }) {
      const template = query.template === "true";
      return csvAttachment(template ? await userTemplate(db, auth) : userExportStream(db, auth), template ? TEMPLATE_FILE : EXPORT_FILE);
    },
  }),
];
