/**
 * Staged firmware rollouts as a reseller (or the platform) follows them in its fleet view (decisions 0091
 * and 0094): each running or paused rollout's progress per customer company of the caller's view. Health
 * of things only: counts of boards, never names or people.
 */
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Auth } from "~/utils/auth-guards.server";
import { schema, type Db } from "~/utils/db.server";
import { waveOf } from "../../gateway/src/firmware/rollout-plan.js";
import { assertPlatformCaller, visibleCompanies } from "./companies.server";
import { OPEN_STATES } from "./firmware-rollouts.server";

export type FleetRolloutCompany = { id: number; name: string; code: string; boards: number; admitted: number; installed: number; failed: number; deferredUntil: string | null };
export type FleetRollout = { id: number; version: string; deviceType: string; state: "running" | "paused"; wave: number; waves: number; companies: FleetRolloutCompany[] };

export async function listFleetRollouts(db: Db, auth: Auth, now: number): Promise<FleetRollout[]> {
  assertPlatformCaller(auth);
  const r = schema.firmwareRollouts;
  const f = schema.firmwareReleases;
  const t = schema.deviceTypes;
  const open = await db
    .select({ rollout: r, version: f.version, deviceType: t.deviceCode })
    .from(r)
    .innerJoin(f, eq(f.id, r.releaseId))
    .innerJoin(t, eq(t.id, r.deviceTypeId))
    .where(inArray(r.state, OPEN_STATES));
  const today = new Date(now).toISOString().slice(0, 10);
  const out: FleetRollout[] = [];
  for (const { rollout: x, version, deviceType } of open) {
    const d = schema.devices;
    const c = schema.companies;
    const p = schema.firmwareProgress;
    const cs = schema.companySettings;
    const [boards, progress] = await db.batch([
      db
        .select({ id: d.id, companyId: d.companyId, name: c.name, code: c.code, deferredUntil: cs.rolloutDeferredUntil })
        .from(d)
        .innerJoin(c, eq(c.id, d.companyId))
        .leftJoin(cs, eq(cs.companyId, c.id))
        .where(and(eq(d.deviceTypeId, x.deviceTypeId), eq(d.status, "configured"), isNull(d.deletedAt), visibleCompanies(auth))),
      db.select({ deviceId: p.deviceId, state: p.state, failedAt: p.failedAt }).from(p).where(eq(p.releaseId, x.releaseId)),
    ]);
    const byDevice = new Map(progress.map((row) => [row.deviceId, row]));
    const plan = { id: x.id, waves: x.waves, canary: x.canary.map(String) };
    const companies = new Map<number, FleetRolloutCompany>();
    for (const b of boards) {
      if (b.companyId === auth.company.id) continue; // the caller's own stock is not a customer
      const deferred = b.deferredUntil != null && b.deferredUntil >= today ? b.deferredUntil : null;
      const row = companies.get(b.companyId) ?? { id: b.companyId, name: b.name, code: b.code, boards: 0, admitted: 0, installed: 0, failed: 0, deferredUntil: deferred };
      row.boards++;
      if (!deferred && waveOf(plan, String(b.id)) <= x.wave) row.admitted++;
      const prog = byDevice.get(b.id);
      if (prog?.state === "installed") row.installed++;
      if (prog?.failedAt != null && prog.failedAt >= x.countedFrom) row.failed++;
      companies.set(b.companyId, row);
    }
    out.push({
      id: x.id,
      version,
      deviceType,
      state: x.state as FleetRollout["state"],
      wave: x.wave,
      waves: x.waves.length,
      companies: [...companies.values()].sort((a, b) => b.failed - a.failed || a.name.localeCompare(b.name)),
    });
  }
  return out;
}
