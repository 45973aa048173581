-- Support tickets and FAQs. Written by hand; the drizzle meta snapshots are not regenerated for it.
-- Activity names for ticket notes and FAQ changes. No explicit ids: each takes the next free one.
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Support Note Added', 'Admin', '100' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Support Note Added');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'FAQ Created', 'Admin', '100' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'FAQ Created');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'FAQ Modified', 'Admin', '100' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'FAQ Modified');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'FAQ Deleted', 'Admin', '100' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'FAQ Deleted');
--> statement-breakpoint
-- The FAQ list is read per language in order.
CREATE INDEX IF NOT EXISTS faqs_language_order_idx ON faqs (language, sort_order);
