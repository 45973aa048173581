import type { IngestResult } from "./gateway-events.server";

/**
 * A gateway batch's state entries (presence, clock readings) split by their check: the ones that pass,
 * and the rest refused with the check's reason, under their id when they have one.
 */
export function checkEntries<E>(raws: unknown[], check: (raw: unknown) => E | string): { entries: E[]; rejected: IngestResult["rejected"] } {
  const rejected: IngestResult["rejected"] = [];
  const entries: E[] = [];
  for (const raw of raws) {
    const e = check(raw);
    if (typeof e === "string") rejected.push({ id: typeof (raw as { id?: unknown })?.id === "string" ? (raw as { id: string }).id : null, reason: e });
    else entries.push(e);
  }
  return { entries, rejected };
}
