import { z } from "zod";
import { CELL_NAME_PATTERN } from "~/schemas/cells";

/**
 * A cell as the platform administrator adds and edits it (docs/decisions/0065-cells-managed-in-the-console.md):
 * its name (fixed once added), the MQTT endpoint its boards connect to, and a label. The form and the admin API
 * parse the same schema; messages are English, translated in the `cells` namespace.
 */
export const CELL_RECORD_MSG = {
  nameRequired: "Required cell name",
  nameInvalid: "A cell name is up to 32 lower-case letters, digits and hyphens, starting with a letter or a digit",
  urlRequired: "Required MQTT URL",
  urlInvalid: "The MQTT URL must be mqtt://host:port or mqtts://host:port",
  labelTooLong: "The label is too long (at most 64 characters)",
  created: "Cell created",
  modified: "Cell saved",
  removed: "Cell removed",
  notFound: "There is no such cell",
  nameTaken: "There is already a cell with this name",
  urlTaken: "Another cell already has this MQTT URL",
  changedMeanwhile: "The cell was changed meanwhile: reload it and try again",
  inUse: "Companies are still in this cell: move them to another cell first",
  mainCell: "The main cell is where new companies start: it cannot be removed",
} as const;

/** Where new companies start (the column's default, migration 0027): never removed. */
export const MAIN_CELL = "main";

// A host name, an IPv4 address or a bracketed IPv6 address; an optional port; nothing else (no user, path or query).
const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const MQTT_URL = new RegExp(`^mqtts?://(?:\\[[0-9a-f:.]+\\]|${LABEL}(?:\\.${LABEL})*)(?::(\\d{1,5}))?$`);

/** The public endpoint boards are told to connect to (gateway/PROTOCOL.md, "Cells and redirects"). */
export function isMqttUrl(url: string): boolean {
  const m = MQTT_URL.exec(url);
  return m !== null && url.length <= 200 && (m[1] === undefined || (Number(m[1]) >= 1 && Number(m[1]) <= 65535));
}

const required = (message: string) => z.string({ required_error: message, invalid_type_error: message }).trim().min(1, message);

export const cellFormSchema = z.object({
  name: required(CELL_RECORD_MSG.nameRequired).regex(CELL_NAME_PATTERN, CELL_RECORD_MSG.nameInvalid),
  // Scheme and host are case-insensitive: stored in lower case, so one endpoint is one string.
  mqttUrl: required(CELL_RECORD_MSG.urlRequired)
    .transform((s) => s.toLowerCase())
    .refine(isMqttUrl, CELL_RECORD_MSG.urlInvalid),
  label: z.string().trim().max(64, CELL_RECORD_MSG.labelTooLong).optional().default(""),
});
export type CellInput = z.output<typeof cellFormSchema>;

/** The API body in the spec's style (`mqtt_url`); the service parses it with the schema above. */
export const cellBody = z.object({ name: z.string().optional(), mqtt_url: z.string().optional(), label: z.string().optional() });
export const cellNameQuery = z.object({ name: required(CELL_RECORD_MSG.nameRequired) });
