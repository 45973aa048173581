/**
 * International phone numbers (docs/decisions/0037-phone-numbers-e164.md). Stored as E.164
 * (`+34612345678`); the admin API keeps the spec's pair (`country_code` '034', `phone_number`
 * national digits), derived from the stored value at the edge. Client-safe: the `min` metadata keeps
 * the browser bundle small. The spec's US rule stands: for +1 a number is exactly 10 digits.
 */
import { getCountries, getCountryCallingCode, isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js/min";
import metadata from "libphonenumber-js/min/metadata";

/** Longest input we try to read (a formatted number with spaces and a '00' prefix fits easily). */
export const PHONE_INPUT_MAX = 32;

/** A number a text message can go to: E.164, as phones are stored (decision 0037); older rows may hold less. */
export const isE164 = (phone: string | null | undefined): boolean => /^\+[1-9]\d{6,14}$/.test(phone ?? "");

const CALLING_CODES = new Set<string>(getCountries().map((c) => getCountryCallingCode(c)));

/**
 * A calling code in any usual shape → its digits: '001', '1', '+1', '0034', '34', or a region ('ES').
 * Null when it names no country.
 */
export function callingCode(input: unknown): string | null {
  const s = String(input ?? "").trim();
  if (/^[A-Za-z]{2}$/.test(s)) {
    const region = s.toUpperCase();
    return isSupportedCountry(region) ? getCountryCallingCode(region as CountryCode) : null;
  }
  const digits = s.replace(/^\+/, "").replace(/^0+/, "");
  return /^\d{1,3}$/.test(digits) && CALLING_CODES.has(digits) ? digits : null;
}

/** The spec's wire shape of a calling code: at least three digits ('001', '034', '351'). */
export const wireCallingCode = (code: string) => code.padStart(3, "0");

export type PhoneProblem = "country" | "number";

/**
 * What a person typed (with the chosen or default country) → E.164, or what is wrong. A number that
 * starts with '+' or '00' carries its own country; otherwise it is national in `country`.
 */
export function parsePhone(country: unknown, number: unknown): { e164: string } | { problem: PhoneProblem } {
  const raw = String(number ?? "").trim();
  if (!raw || raw.length > PHONE_INPUT_MAX || /[^\d\s().+\-/]/.test(raw) || raw.indexOf("+") > 0) return { problem: "number" };
  const digits = raw.replace(/\D/g, "");
  const international = raw.startsWith("+") ? digits : digits.startsWith("00") ? digits.slice(2) : null;
  if (international !== null) {
    if (international.startsWith("1")) return /^1\d{10}$/.test(international) ? { e164: `+${international}` } : { problem: "number" };
    const p = parsePhoneNumberFromString(`+${international}`);
    return p?.isValid() ? { e164: p.number } : { problem: "number" };
  }
  const code = callingCode(country);
  if (!code) return { problem: "country" };
  if (code === "1") {
    const national = digits.length === 11 && digits.startsWith("1") ? digits.slice(1) : digits;
    return /^\d{10}$/.test(national) ? { e164: `+1${national}` } : { problem: "number" };
  }
  const p = parsePhoneNumberFromString(digits, { defaultCallingCode: code });
  return p?.isValid() ? { e164: p.number } : { problem: "number" };
}

/** E.164 or null (for lookups such as sign-in by phone). */
export function toE164(country: unknown, number: unknown): string | null {
  const r = parsePhone(country, number);
  return "e164" in r ? r.e164 : null;
}

/** A stored E.164 split into the spec's wire pair; a value that is not E.164 comes back as it is. */
export function splitPhone(stored: string | null | undefined): { countryCode: string; phoneNumber: string } {
  const s = String(stored ?? "");
  if (!s.startsWith("+")) return { countryCode: "", phoneNumber: s };
  const digits = s.slice(1);
  if (digits.startsWith("1")) return { countryCode: "001", phoneNumber: digits.slice(1) };
  const p = parsePhoneNumberFromString(s);
  if (p) return { countryCode: wireCallingCode(p.countryCallingCode), phoneNumber: p.nationalNumber };
  return { countryCode: "", phoneNumber: digits };
}

/** Region of a stored number, for the country picker ('US' for +1, the number's own region otherwise). */
export function regionOf(stored: string | null | undefined): CountryCode | undefined {
  const s = String(stored ?? "");
  if (!s.startsWith("+")) return undefined;
  if (s.startsWith("+1")) return "US";
  return parsePhoneNumberFromString(s)?.country;
}

/** The region a calling code usually means (the picker's default): '1' → US, '34' → ES, '44' → GB. */
export function regionForCallingCode(code: unknown): CountryCode | undefined {
  const c = callingCode(code);
  if (!c) return undefined;
  // The metadata lists a calling code's main country first (+7 → RU, +44 → GB).
  return (metadata.country_calling_codes as Record<string, CountryCode[]>)[c]?.[0];
}

/** 999-999-9999, the spec's mask for +1 numbers in the field (typed digits only). */
export function maskUs(value: string): string {
  const d = value.replace(/\D/g, "").slice(0, 10);
  return [d.slice(0, 3), d.slice(3, 6), d.slice(6)].filter(Boolean).join("-");
}

/** The national part as the field shows it when a stored number is edited. */
export function nationalForField(stored: string | null | undefined): string {
  const s = String(stored ?? "");
  if (/^\+1\d{10}$/.test(s)) return maskUs(s.slice(2));
  const p = s.startsWith("+") ? parsePhoneNumberFromString(s) : undefined;
  return p ? p.formatNational() : s;
}

export type CountryOption = { region: CountryCode; callingCode: string; name: string };

/** Every country with its calling code, named and sorted in the reader's language. */
export function countryOptions(language: string): CountryOption[] {
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames([language], { type: "region" });
  } catch {
    names = undefined;
  }
  return getCountries()
    .map((region) => ({ region, callingCode: getCountryCallingCode(region), name: names?.of(region) ?? region }))
    .sort((a, b) => a.name.localeCompare(b.name, language));
}

/** A form's country value as the picker's region: a region stays, a calling code ('001', '34') becomes its main region. */
export function pickerRegion(value: string | undefined): string | undefined {
  const v = String(value ?? "");
  return /^[A-Z]{2}$/.test(v) ? v : regionForCallingCode(v);
}
