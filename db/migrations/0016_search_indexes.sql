-- Search on users and device groups (docs/decisions/0035-search-and-bulk-actions.md).
-- A search is a prefix match on lower-cased names, e-mail and phone digits. Each searched column gets
-- an index on (company_id, lower(column)), so `lower(column) >= ? AND lower(column) < ?` is an index
-- range inside one company instead of a scan of every user (a leading-wildcard LIKE could use none).
-- E-mail is stored lower case already and the phone as digits, so their existing indexes serve as is.
CREATE INDEX IF NOT EXISTS `users_company_display_lc_idx` ON `users` (`company_id`, lower(`display_name`));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `users_company_first_lc_idx` ON `users` (`company_id`, lower(`first_name`));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `users_company_last_lc_idx` ON `users` (`company_id`, lower(`last_name`));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `device_groups_company_full_lc_idx` ON `device_groups` (`company_id`, lower(`full_name`));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `device_groups_company_display_lc_idx` ON `device_groups` (`company_id`, lower(`display_name`));
