/**
 * Firmware on the phone (decision 0116): the doors the phone shows (its keys' doors) that have a release
 * they do not run yet, and whether the caller may start their update under the company's policy. The
 * start itself is `startFirmwareUpdate`, the rule the console's device page uses too.
 */
import type { Auth } from "~/utils/auth-guards.server";
import type { Db } from "~/utils/db.server";
import { loadCompany } from "./door-decision.server";
import { devicesReleases, firmwarePolicy } from "./firmware-start.server";
import { assertMobile, heldKeys } from "./mobile.server";

export type DoorFirmware = { id: number; name: string; installed: string | null; release: { id: number; version: string }; started: boolean };

export async function myDoorsFirmware(db: Db, auth: Auth) {
  assertMobile(auth);
  const [state, policy] = await Promise.all([loadCompany(db, auth.company.id, { userId: auth.user.id }), firmwarePolicy(db, auth)]);
  const names = new Map(heldKeys(state, auth.user.id).flatMap((k) => k.doors.map((d) => [d.id, d.name] as const)));
  const rows = names.size ? await devicesReleases(db, auth, [...names.keys()]) : [];
  const doors: DoorFirmware[] = rows.flatMap((r) =>
    r.releaseId != null && r.version != null && r.installed !== r.version
      ? [{ id: r.id, name: names.get(r.id) ?? r.name, installed: r.installed, release: { id: r.releaseId, version: r.version }, started: r.startedReleaseId === r.releaseId }]
      : [],
  );
  return { allowed: policy.allowed, forced: policy.forced, mayStart: policy.mayStart, doors: doors.sort((a, b) => a.name.localeCompare(b.name)) };
}
