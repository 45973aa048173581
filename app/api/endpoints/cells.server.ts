import { z } from "zod";
import { cellBody, cellFormSchema, cellNameQuery } from "~/schemas/cell-records";
import { companyCellSchema, setCompanyCellBody } from "~/schemas/cells";
import * as cells from "~/services/cells.server";
import { parseInput } from "~/utils/parse-input.server";
import type { Action } from "~/utils/permissions";
import { endpoint, type Permission } from "../define.server";

const tag = "Cells";

/** Cells are the platform's: the company module's right, held in the root company (checked before the body). */
const platformAdmin = (action: Action): Permission => ({ modules: "company", action, guard: (_, auth) => cells.assertPlatformAdmin(auth, action) });
const message = z.object({ message: z.string() });
const cellInput = (body: z.infer<typeof cellBody>) => parseInput(cellFormSchema, { name: body.name, mqttUrl: body.mqtt_url, label: body.label });

/** Cells (docs/decisions/0050-cells.md): the platform administrator's calls; anyone else is answered 403. */
export const cellEndpoints = [
  endpoint({
    method: "GET",
    path: "/cell/getCells",
    tag,
    summary:
      "Every gateway cell: its name, the public MQTT endpoint its boards connect to (mqtt_url), its label and how many live companies it serves. Platform administrators only (403 otherwise).",
    auth: "token",
    permission: platformAdmin("view"),
    response: z.object({ payload: z.array(z.object({ name: z.string(), mqtt_url: z.string(), label: z.string(), companies: z.number() })) }),
    async handler({ db, auth }) {
      const { rows } = await cells.listCells(db, auth);
      return { payload: rows.map((r) => ({ name: r.name, mqtt_url: r.mqttUrl, label: r.label, companies: r.companies })) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/cell/addCell",
    tag,
    summary:
      "Adds a cell ('Cell Created'): name (up to 32 lower-case letters, digits and hyphens), mqtt_url (mqtt:// or mqtts://, a host and an optional port: the public endpoint of the cell's gateways), label (optional, up to 64 characters). Platform administrators only (403 otherwise); 400 invalid input, 409 a cell with that name or mqtt_url exists.",
    auth: "token",
    permission: platformAdmin("add"),
    body: cellBody,
    response: message,
    async handler({ db, auth, body, now }) {
      return await cells.addCell(db, auth, cellInput(body), now);
    },
  }),
  endpoint({
    method: "PUT",
    path: "/cell/modifyCell",
    tag,
    summary:
      "Changes a cell's mqtt_url and label ('Cell Modified'); the name identifies it. A new mqtt_url reaches the cell's gateways on the feed, which configure every board of the cell with it: boards connect there from their next connection. Platform administrators only (403 otherwise); 400 invalid input, 404 unknown cell, 409 another cell has that mqtt_url.",
    auth: "token",
    permission: platformAdmin("modify"),
    body: cellBody,
    response: z.object({ message: z.string(), payload: z.object({ endpoint_changed: z.boolean() }) }),
    async handler({ db, auth, body, now }) {
      const r = await cells.modifyCell(db, auth, cellInput(body), now);
      return { message: r.message, payload: { endpoint_changed: r.endpointChanged } };
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/cell/deleteCell",
    tag,
    summary:
      "Removes a cell ('Cell Removed') that no live company is in. Platform administrators only (403 otherwise); 404 unknown cell, 422 companies are in it or it is the main cell (where new companies start).",
    auth: "token",
    permission: platformAdmin("delete"),
    query: cellNameQuery,
    response: message,
    async handler({ db, auth, query, now }) {
      return await cells.deleteCell(db, auth, query.name, now);
    },
  }),
  endpoint({
    method: "PUT",
    path: "/company/setCompanyCell",
    tag,
    summary:
      "Moves a company (id, or company_id: its id or its code) to another cell ('Moved Company To Cell'): its boards are redirected to that cell's gateways, which learn its records while the old cell's forget them; the old cell may still deliver buffered events for 24 hours. Platform administrators only (403 otherwise); 404 unknown company, 422 unknown cell or the company's own cell.",
    auth: "token",
    permission: platformAdmin("modify"),
    body: setCompanyCellBody,
    response: z.object({ message: z.string(), payload: z.object({ from_cell: z.string(), to_cell: z.string() }) }),
    async handler({ db, auth, body, now }) {
      const r = await cells.moveCompanyToCell(db, auth, parseInput(companyCellSchema, { ...body, id: body.id ?? body.company_id }), now);
      return { message: r.message, payload: { from_cell: r.from, to_cell: r.to } };
    },
  }),
];
