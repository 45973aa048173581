/**
 * Fob programmers (docs/ARCHITECTURE.md §7.1, /setFobProgrammers): the company's programmers split into
 * available and assigned; a save names the assigned ones and every other one becomes available.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import { SETTINGS_MSG, type FobProgrammersInput } from "~/schemas/settings";
import { activityInsert } from "~/utils/activity-insert.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { chunks, inChunks, schema, type Db } from "~/utils/db.server";
import { notFound } from "~/utils/errors.server";
import { inCompany } from "~/utils/tenant.server";
import { SETTINGS_MODULE } from "./settings.server";

const p = schema.fobProgrammers;

export type FobProgrammer = { id: number; displayName: string };

export async function getFobProgrammers(db: Db, auth: Auth): Promise<{ available: FobProgrammer[]; assigned: FobProgrammer[] }> {
  assertCan(auth, SETTINGS_MODULE);
  const rows = await db.select().from(p).where(inCompany(p, auth)).orderBy(asc(p.displayName), asc(p.id));
  const pick = (assigned: boolean) => rows.filter((r) => r.isAssigned === assigned).map((r) => ({ id: r.id, displayName: r.displayName }));
  return { available: pick(false), assigned: pick(true) };
}

/** Every id must be a programmer of the caller's company; otherwise 404 and nothing changes. */
export async function saveFobProgrammers(db: Db, auth: Auth, input: FobProgrammersInput, now: number): Promise<void> {
  assertCan(auth, SETTINGS_MODULE, "modify");
  const ids = [...new Set(input.fob_programmers)];
  // Any number of ids: each IN list is cut to D1's parameter limit (IN_CHUNK).
  const found = await inChunks(ids, (part) =>
    db
      .select({ name: p.displayName })
      .from(p)
      .where(inCompany(p, auth, inArray(p.id, part))),
  );
  if (found.length !== ids.length) notFound(SETTINGS_MSG.programmerNotFound);
  const companyId = auth.company.id;
  await db.batch([
    db.update(p).set({ isAssigned: false }).where(inCompany(p, auth)),
    ...chunks(ids).map((part) =>
      db
        .update(p)
        .set({ isAssigned: true })
        .where(and(eq(p.companyId, companyId), inArray(p.id, part))),
    ),
    activityInsert(db, { companyId, name: SETTINGS_MSG.fobsChanged, createdByUserId: auth.user.id, summary: found.map((f) => f.name).join(", "), at: now }),
  ]);
}
