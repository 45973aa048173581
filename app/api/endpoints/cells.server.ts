import { z } from "zod";
import { companyCellSchema, setCompanyCellBody } from "~/schemas/cells";
import * as cells from "~/services/cells.server";
import { parseInput } from "~/utils/parse-input.server";
import { endpoint } from "../define.server";

const tag = "Cells";

/** Cells (docs/decisions/0050-cells.md): the platform administrator's calls; anyone else is answered 403. */
export const cellEndpoints = [
  endpoint({
    method: "GET",
    path: "/cell/getCells",
    tag,
    summary:
      "Every gateway cell: its name, the public MQTT endpoint its boards connect to (mqtt_url), its label and how many live companies it serves. Platform administrators only (403 otherwise).",
    auth: "token",
    permission: { modules: "company", guard: (_, auth) => cells.assertPlatformAdmin(auth, "view") },
    response: z.object({ payload: z.array(z.object({ name: z.string(), mqtt_url: z.string(), label: z.string(), companies: z.number() })) }),
    async handler({ db, auth }) {
      const rows = await cells.listCells(db, auth);
      return { payload: rows.map((r) => ({ name: r.name, mqtt_url: r.mqttUrl, label: r.label, companies: r.companies })) };
    },
  }),
  endpoint({
    method: "PUT",
    path: "/company/setCompanyCell",
    tag,
    summary:
      "Moves a company (id, or company_id: its id or its code) to another cell ('Moved Company To Cell'): its boards are redirected to that cell's gateways, which learn its records while the old cell's forget them; the old cell may still deliver buffered events for 24 hours. Platform administrators only (403 otherwise); 404 unknown company, 422 unknown cell or the company's own cell.",
    auth: "token",
    permission: { modules: "company", action: "modify", guard: (_, auth) => cells.assertPlatformAdmin(auth, "modify") },
    body: setCompanyCellBody,
    response: z.object({ message: z.string(), payload: z.object({ from_cell: z.string(), to_cell: z.string() }) }),
    async handler({ db, auth, body, now }) {
      const r = await cells.moveCompanyToCell(db, auth, parseInput(companyCellSchema, { ...body, id: body.id ?? body.company_id }), now);
      return { message: r.message, payload: { from_cell: r.from, to_cell: r.to } };
    },
  }),
];
