-- Platform area (companies, company requests, mailer, device types, roles). Written by hand;
-- the drizzle meta snapshots are not regenerated for it.

-- A soft-deleted company no longer holds its name + e-mail pair (spec part 2 §5: the pair is
-- unique among companies that exist). Its code stays reserved: codes are remembered by sign-in.
DROP INDEX IF EXISTS companies_name_email_uq;
--> statement-breakpoint
CREATE UNIQUE INDEX companies_name_email_uq ON companies (lower(name), lower(poc_email)) WHERE deleted_at IS NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX companies_code_nocase_uq ON companies (upper(code));
--> statement-breakpoint
-- Who decided a company request, and when.
ALTER TABLE company_requests ADD COLUMN decided_at integer;
--> statement-breakpoint
ALTER TABLE company_requests ADD COLUMN decided_by_user_id integer;
--> statement-breakpoint
CREATE INDEX company_requests_company_idx ON company_requests (company_id, created_at);
--> statement-breakpoint
-- Activity names of company requests. No explicit ids: each takes the next free one.
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Company Request Created', 'Admin', '100' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Company Request Created');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Company Request Accepted', 'Admin', '100' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Company Request Accepted');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Company Request Rejected', 'Admin', '100' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Company Request Rejected');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Mailer Test Sent', 'Admin', '100' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Mailer Test Sent');
