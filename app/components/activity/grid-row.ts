/**
 * What one row of /activity sends to the browser: only what its cells show or link with. The service's
 * row also carries the catalogue's alert and section fields, a device's sensor names, the stored event
 * keys and the raw ids, which the details page and the API use; a page of the log sent them 100 times.
 */
import type { ActivityRow } from "~/services/activity.server";
import { formatZonedTime, localDay } from "~/utils/format";

export type ActivityGridRow = {
  id: number;
  /** The time in the company's zone, written in the reader's language, and its local day (what a Date cell filters to). */
  when: string;
  day: string;
  activityName: string;
  activityType: { name: string; type: string };
  /** Only the gateway's denial code (the reason a denied access shows). */
  details: { code?: string };
  operationType: string;
  summary: string;
  createdByUser: { id: number; displayName: string } | null;
  targetUser: { id: number; displayName: string } | null;
  targetDevice: { id: number; displayName: string; fullName: string } | null;
  targetDeviceGroup: { id: number; fullName: string } | null;
};

export function gridRow(r: ActivityRow, tz: string, language: string): ActivityGridRow {
  const device = r.targetDevice;
  const group = r.targetDeviceGroup;
  return {
    id: r.id,
    when: formatZonedTime(r.at, tz, language),
    day: localDay(r.at, tz),
    activityName: r.activityName,
    activityType: { name: r.activityType.name, type: r.activityType.type },
    details: typeof r.details.code === "string" ? { code: r.details.code } : {},
    operationType: r.operationType,
    summary: r.summary,
    createdByUser: r.createdByUser,
    targetUser: r.targetUser,
    targetDevice: device && { id: device.id, displayName: device.displayName, fullName: device.fullName },
    targetDeviceGroup: group && { id: group.id, fullName: group.fullName },
  };
}
