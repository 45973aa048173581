-- Where a user's sign-in codes go: by e-mail (the default) or by text message to their phone
-- (docs/decisions/0062-password-reset-modes-and-text-messages.md, "Sign-in codes by the user's
-- choice"). Written by hand.
ALTER TABLE users ADD COLUMN two_factor_channel text NOT NULL DEFAULT 'email' CHECK (two_factor_channel IN ('email', 'text'));
