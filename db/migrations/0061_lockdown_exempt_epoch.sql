-- Who is exempt from a lockdown in force changes its epoch (docs/decisions/0117-gateway-lockdown.md).
-- Written by hand.
--
-- Exempt roles reach doors as the users holding them (the `lockdown` record's exemptUserIds). Migration
-- 0050 re-sent the feed record when a user's role changed during a lockdown, with the same epoch: a gateway
-- took it, but a board cut off from its gateway compares epochs and answered `not_newer` to the refreshed
-- signed state a phone brought, so a user who had left the exempt role still opened it. Now a user joining
-- or leaving an exempt role of the lockdown in force (a role given or taken, a new user with it, a holder
-- deleted or restored) raises the epoch; the epoch trigger of 0050 then writes the feed change. A role
-- change that touches no exempt role changes nothing that doors see, and is no longer sent.
DROP TRIGGER IF EXISTS feed_lockdown_user_role;
--> statement-breakpoint
DROP TRIGGER IF EXISTS feed_lockdown_user_insert;
--> statement-breakpoint
CREATE TRIGGER lockdown_exempt_role_update AFTER UPDATE OF role_id, deleted_at ON users
WHEN old.role_id IS NOT new.role_id OR old.deleted_at IS NOT new.deleted_at BEGIN
  UPDATE company_lockdowns SET epoch = epoch + 1
  WHERE company_id = new.company_id AND started_at IS NOT NULL AND ended_at IS NULL
    AND EXISTS (SELECT 1 FROM json_each(company_lockdowns.exempt_role_ids) j WHERE j.value = old.role_id OR j.value = new.role_id);
END;
--> statement-breakpoint
CREATE TRIGGER lockdown_exempt_role_insert AFTER INSERT ON users
WHEN new.role_id IS NOT NULL AND new.deleted_at IS NULL BEGIN
  UPDATE company_lockdowns SET epoch = epoch + 1
  WHERE company_id = new.company_id AND started_at IS NOT NULL AND ended_at IS NULL
    AND EXISTS (SELECT 1 FROM json_each(company_lockdowns.exempt_role_ids) j WHERE j.value = new.role_id);
END;
