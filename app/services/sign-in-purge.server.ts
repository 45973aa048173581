/**
 * Leftovers that can no longer matter: expired reset links, second-factor codes and phone WebAuthn
 * challenges (used or not; their use is in the activity log), throttle counters whose window and lock
 * have both passed, and mail and texts settled a month ago. Run by the every-minute cron, so these
 * tables stay the size of current activity.
 */
import { and, isNull, lt, or } from "drizzle-orm";
import { schema, type Db } from "~/utils/db.server";
import { pruneSettledMail, redactStaleSecrets } from "./mail/outbox.server";
import { pruneSettledTexts } from "./sms/text-outbox.server";
import { THROTTLE } from "./throttle.server";

/** Reset links live an hour; after that no queued mail needs its secret. */
const SECRET_LIFETIME_MS = 60 * 60 * 1000;
/**
 * Sent or given-up mail and tried texts stay a month, for whoever asks why one did not arrive; what
 * they were sent for is in the activity log and the alert matches, which keep each mail queued once.
 */
export const OUTBOX_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

export async function purgeSignInLeftovers(db: Db, now: number): Promise<void> {
  const t = schema.loginThrottles;
  await db.batch([
    db.delete(schema.passwordResetTokens).where(lt(schema.passwordResetTokens.expiresAt, now)),
    db.delete(schema.twoFactorCodes).where(lt(schema.twoFactorCodes.expiresAt, now)),
    db.delete(schema.webauthnChallenges).where(lt(schema.webauthnChallenges.expiresAt, now)),
    db.delete(t).where(and(lt(t.windowStart, now - THROTTLE.windowMs), or(isNull(t.lockedUntil), lt(t.lockedUntil, now)))),
  ]);
  await redactStaleSecrets(db, now - SECRET_LIFETIME_MS);
  await pruneSettledMail(db, now - OUTBOX_KEPT_MS);
  await pruneSettledTexts(db, now - OUTBOX_KEPT_MS);
}
