-- Phones become E.164 (docs/decisions/0037-phone-numbers-e164.md). Until now a phone was its digits
-- beside a calling code ('001', '034'); now the number itself is '+<code><national number>'. The
-- calling-code columns stay (the spec's pair is derived from the E.164 value at the edge).
-- Only rows SQL can convert safely are changed: digits only, a known code, not already E.164. A leading
-- trunk '0' is dropped except for Italy (+39), where it belongs to the number; a +1 number typed with
-- its leading '1' loses it. Anything else is left as stored: it shows as stored and is normalised when
-- it is next saved (the decision explains why no worker pass is needed). The users' feed trigger does
-- not watch phone columns, so this sends nothing to the gateways.

UPDATE users SET phone_number = '+' || ltrim(country_code, '0') || CASE
    WHEN ltrim(country_code, '0') = '1' AND length(phone_number) = 11 AND phone_number LIKE '1%' THEN substr(phone_number, 2)
    WHEN ltrim(country_code, '0') = '39' THEN phone_number
    ELSE ltrim(phone_number, '0') END
  WHERE phone_number <> '' AND phone_number NOT GLOB '*[^0-9]*' AND ltrim(country_code, '0') GLOB '[1-9]*' AND length(ltrim(country_code, '0')) <= 3;
--> statement-breakpoint
UPDATE companies SET poc_phone_number = '+' || ltrim(poc_country_code, '0') || CASE
    WHEN ltrim(poc_country_code, '0') = '1' AND length(poc_phone_number) = 11 AND poc_phone_number LIKE '1%' THEN substr(poc_phone_number, 2)
    WHEN ltrim(poc_country_code, '0') = '39' THEN poc_phone_number
    ELSE ltrim(poc_phone_number, '0') END
  WHERE poc_phone_number <> '' AND poc_phone_number NOT GLOB '*[^0-9]*' AND ltrim(poc_country_code, '0') GLOB '[1-9]*' AND length(ltrim(poc_country_code, '0')) <= 3;
--> statement-breakpoint
UPDATE company_requests SET poc_phone_number = '+' || ltrim(poc_country_code, '0') || CASE
    WHEN ltrim(poc_country_code, '0') = '1' AND length(poc_phone_number) = 11 AND poc_phone_number LIKE '1%' THEN substr(poc_phone_number, 2)
    WHEN ltrim(poc_country_code, '0') = '39' THEN poc_phone_number
    ELSE ltrim(poc_phone_number, '0') END
  WHERE poc_phone_number <> '' AND poc_phone_number NOT GLOB '*[^0-9]*' AND ltrim(poc_country_code, '0') GLOB '[1-9]*' AND length(ltrim(poc_country_code, '0')) <= 3;
--> statement-breakpoint
-- The contact phone for admin password resets had no code of its own: it is read in the company's default country.
UPDATE company_settings SET password_reset_phone = '+' || ltrim(default_country_code, '0') || CASE
    WHEN ltrim(default_country_code, '0') = '1' AND length(password_reset_phone) = 11 AND password_reset_phone LIKE '1%' THEN substr(password_reset_phone, 2)
    WHEN ltrim(default_country_code, '0') = '39' THEN password_reset_phone
    ELSE ltrim(password_reset_phone, '0') END
  WHERE password_reset_phone <> '' AND password_reset_phone NOT GLOB '*[^0-9]*' AND ltrim(default_country_code, '0') GLOB '[1-9]*' AND length(ltrim(default_country_code, '0')) <= 3;
