import { z } from "zod";
import { CUSTOM_FIELD_TYPES, customFieldSchema, modifyCustomFieldBody } from "~/schemas/custom-fields";
import * as customFields from "~/services/custom-fields.server";
import { endpoint } from "../define.server";

const tag = "Custom fields";
const message = z.object({ message: z.string() });
const id = z.coerce.number({ invalid_type_error: "id must be a number" }).int().positive("id is required");
const idQuery = z.object({ id });
const fieldShape = z.object({
  id: z.number(),
  key: z.string().describe("The name in custom_fields of the user endpoints and the CSV's column header"),
  label: z.string(),
  type: z.enum(CUSTOM_FIELD_TYPES),
  choices: z.array(z.string()).describe("A choice field's choices; empty for other types"),
  required: z.boolean(),
  showInList: z.boolean().describe("Shown as a column of the console's users list"),
  position: z.number().describe("Order in the user form (then by id)"),
  updatedAt: z.number(),
});
const fieldPayload = (r: customFields.CustomField) => ({
  id: r.id,
  key: r.key,
  label: r.label,
  type: r.type,
  choices: r.choices,
  required: r.required,
  showInList: r.showInList,
  position: r.position,
  updatedAt: r.updatedAt,
});
const modules = "company_settings" as const;

/** Issue 32, decision 0095: the company's custom fields for its users; the values travel as the user endpoints' `custom_fields`. */
export const customFieldEndpoints = [
  endpoint({
    method: "GET",
    path: "/customFields/getFields",
    tag,
    summary: "The caller's company's custom fields for users, in form order. Readable with the users or the company settings module.",
    auth: "token",
    permission: { modules: ["users", modules] },
    response: z.object({ payload: z.array(fieldShape.extend({ values: z.number().describe("How many users have a value") })) }),
    async handler({ db, auth }) {
      return { payload: (await customFields.listCustomFields(db, auth)).rows.map((r) => ({ ...fieldPayload(r), values: r.values })) };
    },
  }),
  endpoint({
    method: "GET",
    path: "/customFields/getField",
    tag,
    summary: "One custom field. 404 outside the caller's company.",
    auth: "token",
    permission: { modules: ["users", modules] },
    query: idQuery,
    response: z.object({ payload: fieldShape }),
    async handler({ db, auth, query }) {
      return { payload: fieldPayload(await customFields.getCustomField(db, auth, query.id)) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/customFields/addField",
    tag,
    summary:
      "Creates a custom field ('Custom Field Created'): key (a-z, 0-9, _; starting with a letter; at most 40), label (at most 60), type text | number | date | choice, choices (1 to 50, for choice), required, showInList, position. 400 field errors; 422 a key in use or more than 30 fields.",
    auth: "token",
    permission: { modules, action: "add" },
    body: customFieldSchema,
    response: z.object({ message: z.string(), payload: z.object({ id: z.number() }) }),
    async handler({ db, auth, body, now }) {
      const r = await customFields.addCustomField(db, auth, body, now);
      return { message: r.message, payload: { id: r.id } };
    },
  }),
  endpoint({
    method: "PUT",
    path: "/customFields/modifyField",
    tag,
    summary:
      "Saves a custom field ('Custom Field Modified'); the whole definition is sent. 404 outside the caller's company; 422 a key in use, or a new type once users have values.",
    auth: "token",
    permission: { modules, action: "modify" },
    body: modifyCustomFieldBody,
    response: message,
    async handler({ db, auth, body, now }) {
      return await customFields.modifyCustomField(db, auth, body.id, body, now);
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/customFields/deleteField",
    tag,
    summary: "Deletes a custom field and every user's value of it ('Custom Field Deleted'); its key is free again.",
    auth: "token",
    permission: { modules, action: "delete" },
    query: idQuery,
    response: message,
    async handler({ db, auth, query, now }) {
      return await customFields.deleteCustomField(db, auth, query.id, now);
    },
  }),
];
