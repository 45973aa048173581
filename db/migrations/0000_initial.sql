CREATE TABLE `activity_logs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`event_id` text,
	`activity_type_id` integer NOT NULL,
	`operation_type` text NOT NULL,
	`created_by_user_id` integer,
	`target_user_id` integer,
	`target_device_id` integer,
	`target_device_group_id` integer,
	`summary` text DEFAULT '' NOT NULL,
	`details_json` text DEFAULT '{}' NOT NULL,
	`gps_location` text,
	`activity_timestamp` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `activity_event_uq` ON `activity_logs` (`event_id`);--> statement-breakpoint
CREATE INDEX `activity_company_ts_idx` ON `activity_logs` (`company_id`,`activity_timestamp`);--> statement-breakpoint
CREATE INDEX `activity_company_op_ts_idx` ON `activity_logs` (`company_id`,`operation_type`,`activity_timestamp`);--> statement-breakpoint
CREATE INDEX `activity_user_ts_idx` ON `activity_logs` (`company_id`,`target_user_id`,`activity_timestamp`);--> statement-breakpoint
CREATE INDEX `activity_creator_ts_idx` ON `activity_logs` (`company_id`,`created_by_user_id`,`activity_timestamp`);--> statement-breakpoint
CREATE INDEX `activity_device_ts_idx` ON `activity_logs` (`company_id`,`target_device_id`,`activity_timestamp`);--> statement-breakpoint
CREATE INDEX `activity_group_ts_idx` ON `activity_logs` (`company_id`,`target_device_group_id`,`activity_timestamp`);--> statement-breakpoint
CREATE INDEX `activity_type_ts_idx` ON `activity_logs` (`company_id`,`activity_type_id`,`activity_timestamp`);--> statement-breakpoint
CREATE TABLE `activity_notes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`activity_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`note_description` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `activity_notes_activity_idx` ON `activity_notes` (`activity_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `activity_types` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`alert_conditions` text DEFAULT '000' NOT NULL,
	`first_section_info` text DEFAULT '' NOT NULL,
	`details_section_info` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `activity_types_name_unique` ON `activity_types` (`name`);--> statement-breakpoint
CREATE TABLE `alert_recipients` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`alert_id` integer NOT NULL,
	`company_id` integer NOT NULL,
	`user_id` integer,
	`email` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `alert_recipients_alert_idx` ON `alert_recipients` (`alert_id`);--> statement-breakpoint
CREATE TABLE `alert_targets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`alert_id` integer NOT NULL,
	`company_id` integer NOT NULL,
	`kind` text NOT NULL,
	`ref_id` integer
);
--> statement-breakpoint
CREATE INDEX `alert_targets_alert_idx` ON `alert_targets` (`alert_id`);--> statement-breakpoint
CREATE TABLE `alerts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`name` text NOT NULL,
	`activity_type_id` integer NOT NULL,
	`schedule` text DEFAULT 'any' NOT NULL,
	`start_date` text,
	`end_date` text,
	`is_never_end` integer DEFAULT false NOT NULL,
	`days` text DEFAULT '1111111' NOT NULL,
	`is_all_day` integer DEFAULT false NOT NULL,
	`start_time` text,
	`end_time` text,
	`time_zone_id` integer,
	`last_activity_id` integer,
	`last_run_at` integer,
	`deleted_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `alerts_company_idx` ON `alerts` (`company_id`,`name`);--> statement-breakpoint
CREATE INDEX `alerts_activity_idx` ON `alerts` (`company_id`,`activity_type_id`);--> statement-breakpoint
CREATE TABLE `companies` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`parent_id` integer,
	`discount_percentage` real DEFAULT 0 NOT NULL,
	`poc_first_name` text DEFAULT '' NOT NULL,
	`poc_last_name` text DEFAULT '' NOT NULL,
	`poc_email` text DEFAULT '' NOT NULL,
	`poc_country_code` text DEFAULT '001' NOT NULL,
	`poc_phone_number` text DEFAULT '' NOT NULL,
	`next_billing_date` text,
	`is_deactive` integer DEFAULT false NOT NULL,
	`deleted_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `companies_code_uq` ON `companies` (`code`);--> statement-breakpoint
CREATE INDEX `companies_parent_idx` ON `companies` (`parent_id`,`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `companies_name_email_uq` ON `companies` (`name`,`poc_email`);--> statement-breakpoint
CREATE TABLE `company_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`poc_user_id` integer NOT NULL,
	`company_name` text NOT NULL,
	`company_type` text DEFAULT 'ec' NOT NULL,
	`billing_term` integer NOT NULL,
	`poc_first_name` text DEFAULT '' NOT NULL,
	`poc_last_name` text DEFAULT '' NOT NULL,
	`poc_email` text DEFAULT '' NOT NULL,
	`poc_country_code` text DEFAULT '001' NOT NULL,
	`poc_phone_number` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_company_id` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `company_requests_status_idx` ON `company_requests` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `company_settings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`is_multi_phone_login` integer DEFAULT false NOT NULL,
	`offline_reconect` integer DEFAULT 24 NOT NULL,
	`schedule_open` integer DEFAULT false NOT NULL,
	`fpi` integer DEFAULT false NOT NULL,
	`default_time_zone_id` integer,
	`ekey_duration` integer DEFAULT 24 NOT NULL,
	`default_country_code` text DEFAULT '001' NOT NULL,
	`password_expiry_duration` integer DEFAULT 0 NOT NULL,
	`is_force_firmware_update` integer DEFAULT false NOT NULL,
	`allowed_firmware` text DEFAULT 'All Users' NOT NULL,
	`biometric_security` integer DEFAULT false NOT NULL,
	`require_2fa` integer DEFAULT false NOT NULL,
	`password_reset_security` text DEFAULT 'email' NOT NULL,
	`password_reset_secondary_action` text DEFAULT 'nothing' NOT NULL,
	`password_reset_phone` text DEFAULT '' NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `company_settings_company_id_unique` ON `company_settings` (`company_id`);--> statement-breakpoint
CREATE TABLE `device_group_members` (
	`group_id` integer NOT NULL,
	`device_id` integer NOT NULL,
	`company_id` integer NOT NULL,
	PRIMARY KEY(`group_id`, `device_id`)
);
--> statement-breakpoint
CREATE INDEX `device_group_members_device_idx` ON `device_group_members` (`device_id`);--> statement-breakpoint
CREATE TABLE `device_groups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`full_name` text NOT NULL,
	`display_name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`sch_monday` integer DEFAULT false NOT NULL,
	`sch_tuesday` integer DEFAULT false NOT NULL,
	`sch_wednesday` integer DEFAULT false NOT NULL,
	`sch_thursday` integer DEFAULT false NOT NULL,
	`sch_friday` integer DEFAULT false NOT NULL,
	`sch_saturday` integer DEFAULT false NOT NULL,
	`sch_sunday` integer DEFAULT false NOT NULL,
	`start_at` text,
	`end_at` text,
	`is_all_day` integer DEFAULT false NOT NULL,
	`time_zone_id` integer,
	`status` integer DEFAULT 1 NOT NULL,
	`deleted_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `device_groups_company_idx` ON `device_groups` (`company_id`,`status`,`full_name`);--> statement-breakpoint
CREATE TABLE `device_transfer_items` (
	`transfer_id` integer NOT NULL,
	`device_id` integer NOT NULL,
	PRIMARY KEY(`transfer_id`, `device_id`)
);
--> statement-breakpoint
CREATE TABLE `device_transfers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`to_company_id` integer NOT NULL,
	`status` text NOT NULL,
	`shipping_date` text,
	`subscription_term` integer,
	`created_by_user_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `device_transfers_company_idx` ON `device_transfers` (`company_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `device_types` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`device_code` text NOT NULL,
	`device_type` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `device_types_device_code_unique` ON `device_types` (`device_code`);--> statement-breakpoint
CREATE TABLE `devices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`device_type_id` integer,
	`full_name` text DEFAULT '' NOT NULL,
	`display_name` text DEFAULT '' NOT NULL,
	`serial_number` text NOT NULL,
	`serial_front` text DEFAULT '' NOT NULL,
	`serial_back` text DEFAULT '' NOT NULL,
	`hardware_id` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'configured' NOT NULL,
	`start_date` text,
	`shipping_date` text,
	`subscription_term` integer,
	`lock_type` text DEFAULT '' NOT NULL,
	`relock_trigger` text DEFAULT 'Timer' NOT NULL,
	`relock_timer` integer,
	`trigger_mode` text DEFAULT '' NOT NULL,
	`manual_lock` integer DEFAULT false NOT NULL,
	`sleep_mode` integer DEFAULT false NOT NULL,
	`sleep_time` integer,
	`bluetooth_power_level` integer DEFAULT 3 NOT NULL,
	`dnort_time` integer,
	`low_battery` integer DEFAULT false NOT NULL,
	`schedule_open` integer DEFAULT false NOT NULL,
	`sensor1_open_name` text DEFAULT '' NOT NULL,
	`sensor1_close_name` text DEFAULT '' NOT NULL,
	`sensor2_open_name` text DEFAULT '' NOT NULL,
	`sensor2_close_name` text DEFAULT '' NOT NULL,
	`last_latitude` real,
	`last_longitude` real,
	`last_location_at` integer,
	`installed_at` integer,
	`last_activity_at` integer,
	`board_secret_hash` text,
	`firmware_version` text,
	`deleted_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `devices_serial_uq` ON `devices` (`serial_number`);--> statement-breakpoint
CREATE INDEX `devices_company_name_idx` ON `devices` (`company_id`,`full_name`);--> statement-breakpoint
CREATE INDEX `devices_company_created_idx` ON `devices` (`company_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `devices_company_status_idx` ON `devices` (`company_id`,`status`);--> statement-breakpoint
CREATE TABLE `ekey_assignments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`is_group` integer DEFAULT false NOT NULL,
	`device_id` integer,
	`group_id` integer,
	`access_type` text NOT NULL,
	`status` text DEFAULT '1' NOT NULL,
	`start_date` text,
	`end_date` text,
	`start_time` text,
	`end_time` text,
	`schedule_days` text DEFAULT '1111111' NOT NULL,
	`is_never_end` integer DEFAULT false NOT NULL,
	`is_all_day` integer DEFAULT false NOT NULL,
	`time_zone_id` integer,
	`fob_device_id` text,
	`used_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `ekeys_user_idx` ON `ekey_assignments` (`company_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `ekeys_device_idx` ON `ekey_assignments` (`device_id`);--> statement-breakpoint
CREATE INDEX `ekeys_group_idx` ON `ekey_assignments` (`group_id`);--> statement-breakpoint
CREATE TABLE `faqs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer,
	`language` text DEFAULT 'en' NOT NULL,
	`question` text NOT NULL,
	`answer` text NOT NULL,
	`sort_order` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `firmware_progress` (
	`device_id` integer NOT NULL,
	`release_id` integer NOT NULL,
	`company_id` integer NOT NULL,
	`blocks_done` integer DEFAULT 0 NOT NULL,
	`blocks_total` integer DEFAULT 0 NOT NULL,
	`state` text NOT NULL,
	`detail` text DEFAULT '' NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`device_id`, `release_id`)
);
--> statement-breakpoint
CREATE INDEX `firmware_progress_release_idx` ON `firmware_progress` (`release_id`);--> statement-breakpoint
CREATE TABLE `firmware_releases` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`device_type_id` integer,
	`version` text NOT NULL,
	`version_description` text DEFAULT '' NOT NULL,
	`r2_key` text NOT NULL,
	`file_name` text NOT NULL,
	`size` integer NOT NULL,
	`sha256` text NOT NULL,
	`is_active` integer DEFAULT false NOT NULL,
	`deleted_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `firmware_type_idx` ON `firmware_releases` (`device_type_id`,`is_active`);--> statement-breakpoint
CREATE TABLE `fob_programmers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`display_name` text NOT NULL,
	`is_assigned` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE INDEX `fob_programmers_company_idx` ON `fob_programmers` (`company_id`,`is_assigned`);--> statement-breakpoint
CREATE TABLE `gateway_changes` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`entity` text NOT NULL,
	`entity_id` integer NOT NULL,
	`op` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `gateway_changes_entity_idx` ON `gateway_changes` (`entity`,`entity_id`);--> statement-breakpoint
CREATE TABLE `gateways` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`secret_hash` text NOT NULL,
	`last_seen_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `gateways_name_unique` ON `gateways` (`name`);--> statement-breakpoint
CREATE TABLE `invoice_line_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`invoice_id` integer NOT NULL,
	`company_id` integer NOT NULL,
	`name` text NOT NULL,
	`desc` text NOT NULL,
	`qty` integer NOT NULL,
	`price` integer NOT NULL,
	`discount` real DEFAULT 0 NOT NULL,
	`price_per` integer NOT NULL,
	`total` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `invoice_lines_invoice_idx` ON `invoice_line_items` (`invoice_id`);--> statement-breakpoint
CREATE TABLE `invoices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`customer_company_id` integer NOT NULL,
	`invoice_num` text NOT NULL,
	`due_date` text NOT NULL,
	`notes` text DEFAULT '' NOT NULL,
	`amount` integer DEFAULT 0 NOT NULL,
	`discount` integer DEFAULT 0 NOT NULL,
	`shipping` integer DEFAULT 0 NOT NULL,
	`tax` integer DEFAULT 0 NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_num_uq` ON `invoices` (`company_id`,`invoice_num`);--> statement-breakpoint
CREATE INDEX `invoices_customer_idx` ON `invoices` (`customer_company_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `login_throttles` (
	`key` text PRIMARY KEY NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`window_start` integer NOT NULL,
	`locked_until` integer
);
--> statement-breakpoint
CREATE TABLE `mailer_configs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer,
	`host_name` text NOT NULL,
	`port_name` integer NOT NULL,
	`user_name` text NOT NULL,
	`user_password` text NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mailer_configs_company_id_unique` ON `mailer_configs` (`company_id`);--> statement-breakpoint
CREATE TABLE `password_reset_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`company_id` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `password_reset_user_idx` ON `password_reset_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `permission_modules` (
	`key` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`sort_order` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `role_modules` (
	`role_id` integer NOT NULL,
	`company_id` integer NOT NULL,
	`module_key` text NOT NULL,
	PRIMARY KEY(`role_id`, `module_key`)
);
--> statement-breakpoint
CREATE TABLE `roles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`role_title` text NOT NULL,
	`role_description` text DEFAULT '' NOT NULL,
	`permission_all` integer DEFAULT false NOT NULL,
	`permission_add` integer DEFAULT false NOT NULL,
	`permission_modify` integer DEFAULT false NOT NULL,
	`permission_view` integer DEFAULT false NOT NULL,
	`permission_delete` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `roles_company_title_uq` ON `roles` (`company_id`,`role_title`);--> statement-breakpoint
CREATE TABLE `schedule_open_days` (
	`company_id` integer NOT NULL,
	`day` integer NOT NULL,
	`open_whole_day` integer DEFAULT false NOT NULL,
	`open_time` text DEFAULT '' NOT NULL,
	`close_time` text DEFAULT '' NOT NULL,
	PRIMARY KEY(`company_id`, `day`)
);
--> statement-breakpoint
CREATE TABLE `schedule_open_exceptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`date` text NOT NULL,
	`open_whole_day` integer DEFAULT false NOT NULL,
	`open_time` text DEFAULT '' NOT NULL,
	`close_time` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `schedule_open_exceptions_uq` ON `schedule_open_exceptions` (`company_id`,`date`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`company_id` integer NOT NULL,
	`kind` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`last_seen_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`ip` text DEFAULT '' NOT NULL,
	`user_agent` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE INDEX `sessions_expiry_idx` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `support_ticket_notes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`ticket_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`note_description` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `support_ticket_notes_ticket_idx` ON `support_ticket_notes` (`ticket_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `support_tickets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`ticket_number` text NOT NULL,
	`user_id` integer NOT NULL,
	`brand` text DEFAULT '' NOT NULL,
	`phone_model` text DEFAULT '' NOT NULL,
	`software_version` text DEFAULT '' NOT NULL,
	`app_version` text DEFAULT '' NOT NULL,
	`ticket_mode` integer DEFAULT 1 NOT NULL,
	`bluetooth_status` text DEFAULT 'On' NOT NULL,
	`bluetooth_permission` integer DEFAULT 1 NOT NULL,
	`location_permission` integer DEFAULT 1 NOT NULL,
	`latitude` real,
	`longitude` real,
	`sentinel_date_time` integer,
	`reporting_date_time` integer,
	`devices_details` text DEFAULT '{}' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `support_tickets_number_uq` ON `support_tickets` (`ticket_number`);--> statement-breakpoint
CREATE INDEX `support_tickets_company_idx` ON `support_tickets` (`company_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `time_zones` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`label` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `time_zones_name_unique` ON `time_zones` (`name`);--> statement-breakpoint
CREATE TABLE `two_factor_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`company_id` integer NOT NULL,
	`code_hash` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `two_factor_user_idx` ON `two_factor_codes` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`role_id` integer,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`display_name` text NOT NULL,
	`email` text NOT NULL,
	`country_code` text DEFAULT '001' NOT NULL,
	`phone_number` text DEFAULT '' NOT NULL,
	`notes` text DEFAULT '' NOT NULL,
	`is_sentinel` integer DEFAULT false NOT NULL,
	`is_super_admin` integer DEFAULT false NOT NULL,
	`is_installer` integer DEFAULT false NOT NULL,
	`is_fob` integer DEFAULT false NOT NULL,
	`is_inactive` integer DEFAULT false NOT NULL,
	`is_so_interrupt` integer DEFAULT true NOT NULL,
	`is_flagged` integer DEFAULT false NOT NULL,
	`support_ticket_id` integer,
	`account_setup_pending` integer DEFAULT false NOT NULL,
	`password_hash` text,
	`password_changed_at` integer,
	`bound_device_id` text,
	`last_activity_at` integer,
	`deleted_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_company_email_uq` ON `users` (`company_id`,`email`) WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX `users_company_phone_idx` ON `users` (`company_id`,`phone_number`);--> statement-breakpoint
CREATE INDEX `users_company_name_idx` ON `users` (`company_id`,`is_inactive`,`display_name`);--> statement-breakpoint
CREATE INDEX `users_company_activity_idx` ON `users` (`company_id`,`last_activity_at`);--> statement-breakpoint
CREATE INDEX `users_role_idx` ON `users` (`role_id`);