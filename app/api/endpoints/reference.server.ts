import { asc } from "drizzle-orm";
import { z } from "zod";
import { schema } from "~/utils/db.server";
import { endpoint } from "../define.server";

export const referenceEndpoints = [
  endpoint({
    method: "GET",
    path: "/user/getAllTimeZone",
    tag: "Reference",
    summary: "Every IANA time zone offered in pickers.",
    auth: "token",
    permission: "signed-in",
    response: z.object({ payload: z.array(z.object({ id: z.number(), full_time_zone: z.string(), name: z.string() })) }),
    async handler({ db }) {
      const rows = await db.select().from(schema.timeZones).orderBy(asc(schema.timeZones.name));
      return { payload: rows.map((r) => ({ id: r.id, full_time_zone: r.label, name: r.name })) };
    },
  }),
];
