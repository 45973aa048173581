-- Invites and set-password links (docs/decisions/0055-invites-and-set-password-links.md). A link is a
-- reset link with a purpose: 'reset' (an hour, from "forgot password") or 'invite' (7 days, mailed when an
-- account is created). lands_on says where the person is signed in once the password is chosen: the
-- console, or the phone app for a user without console rights and for a reset asked from the phone.
ALTER TABLE password_reset_tokens ADD COLUMN purpose text DEFAULT 'reset' NOT NULL;
--> statement-breakpoint
ALTER TABLE password_reset_tokens ADD COLUMN lands_on text DEFAULT 'console' NOT NULL;
--> statement-breakpoint
-- The language a company's mails (invites, reset links) are written in; asked when the company is created.
ALTER TABLE company_settings ADD COLUMN language text DEFAULT 'en' NOT NULL;
