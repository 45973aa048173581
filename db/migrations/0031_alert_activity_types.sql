-- Several event types per alert (docs/decisions/0059-alert-event-types.md). Written by hand.

-- The event types an alert fires for. alerts.activity_type_id stays the first of them: the spec's single
-- `activity` field and the list read it. The engine reads this table by (company, type), so finding the
-- alerts a page of events may match stays one indexed read however many types an alert has.
CREATE TABLE alert_activity_types (
  alert_id integer NOT NULL,
  company_id integer NOT NULL,
  activity_type_id integer NOT NULL,
  PRIMARY KEY (alert_id, activity_type_id)
);
--> statement-breakpoint
CREATE INDEX alert_activity_types_company_type_idx ON alert_activity_types (company_id, activity_type_id);
--> statement-breakpoint
INSERT INTO alert_activity_types (alert_id, company_id, activity_type_id) SELECT id, company_id, activity_type_id FROM alerts;
--> statement-breakpoint
-- Which companies can have an event at all: 'company' every company, 'reseller' only resellers, OEMs and
-- the platform (companies, their requests, invoices, firmware), 'platform' only the platform's own company
-- (device types, FAQs, board registration, cells). An alert may only watch what its company can have.
ALTER TABLE activity_types ADD COLUMN audience text NOT NULL DEFAULT 'company';
--> statement-breakpoint
UPDATE activity_types SET audience = 'reseller' WHERE name IN ('Created Company', 'Modified Company', 'Removed Company', 'Company Request Created',
  'Company Request Accepted', 'Company Request Rejected', 'Invoice Created', 'Firmware Uploaded', 'Firmware Activated', 'Firmware Removed');
--> statement-breakpoint
UPDATE activity_types SET audience = 'platform' WHERE name IN ('Device Type Created', 'Device Type Modified', 'Removed Device Type', 'FAQ Created',
  'FAQ Modified', 'FAQ Deleted', 'Devices Registered', 'Moved Company To Cell');
--> statement-breakpoint
-- The language the alert's mail is written in: the one its editor used when saving it.
ALTER TABLE alerts ADD COLUMN language text NOT NULL DEFAULT 'en';
