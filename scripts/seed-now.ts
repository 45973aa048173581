import { seedInstant } from "../db/seed/clock";

/**
 * The seed instant of a seed script (decision 0064): SEED_NOW (epoch ms), which the test runs set to
 * their console's shifted clock (playwright.config.ts, scripts/d1-template.sh), else the start of
 * today (UTC) by the real clock, as `npm start`'s console reads it.
 */
export function seedNow(): number {
  const raw = process.env.SEED_NOW;
  if (raw === undefined || raw === "") return seedInstant(Date.now());
  const at = Number(raw);
  if (!Number.isSafeInteger(at)) throw new Error(`SEED_NOW must be epoch milliseconds, not ${raw}`);
  return at;
}
