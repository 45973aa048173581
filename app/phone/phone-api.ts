/** The phone app's calls to /api/mobile (bearer token of the phone's session). */
import type { AssertionInput, RegistrationInput } from "~/schemas/phone-webauthn";
import type { HeldKeys, PhoneSettings } from "./phone-store";

type KeysPayload = Omit<HeldKeys, "fetchedAt"> & { now: number; settings: PhoneSettings };
/** The doors of the phone's keys with a firmware release they do not run, and the company's policy (decision 0116). */
export type PhoneFirmware = {
  allowed: string;
  forced: boolean;
  mayStart: boolean;
  doors: { id: number; name: string; installed: string | null; release: { id: number; version: string }; started: boolean }[];
};
/** The plans this user may start from the phone, and the company's lockdown in force (decision 0083). */
export type PhoneLockdown = {
  plans: { id: number; name: string; mode: "lockdown" | "evacuation"; scope: "company" | "groups" | "doors"; durationMinutes: number | null }[];
  inForce: { planId: number | null; planName: string; mode: "lockdown" | "evacuation"; startedBy: string; startedAt: number; endsAt: number | null; mayEnd: boolean } | null;
};
export class PhoneApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The console's stable error code (e.g. biometric-required), when it sent one. */
    readonly code?: string,
    /** The refusal's details (a 402's e_mail and phoneNumber, a 429's minutes or seconds). */
    readonly payload?: Record<string, unknown>,
  ) {
    super(message);
  }
}

async function call<T>(method: "GET" | "POST", path: string, token: string | null, body?: unknown): Promise<T> {
  const res = await fetch(`/api/mobile${path}`, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json().catch(() => ({}))) as { message?: string; payload?: Record<string, unknown>; token?: string; errorCode?: string };
  if (!res.ok) throw new PhoneApiError(res.status, json.message ?? `HTTP ${res.status}`, json.errorCode, json.payload);
  return json as T;
}

export type SignedIn = { token: string; payload: { dispay_name: string; settings: PhoneSettings } };

export const phoneApi = {
  login: (input: Record<string, unknown>) => call<SignedIn>("POST", "/login", null, input),
  /** The second half of a sign-in that answered 402: the code that was mailed or texted. */
  twoFactor: (input: Record<string, unknown>) => call<SignedIn>("POST", "/twoFactorAuthenticate", null, input),
  codeByText: (input: { companyId: string; userName: string }) =>
    call<{ message: string; payload: { channel: "text" | "email" } }>("POST", "/sendTwoFactorCodeByText", null, input),
  keys: (token: string) => call<{ payload: KeysPayload }>("GET", "/keys", token),
  /** The keys with a verified assertion (required when the company requires biometrics). */
  keysVerified: (token: string, assertion: AssertionInput) => call<{ payload: KeysPayload }>("POST", "/keys", token, { assertion }),
  challenge: (token: string, purpose: "create" | "get") =>
    call<{ payload: { challenge: string; rpId: string; credentialId: string | null; expiresAt: number } }>("POST", "/webauthn/challenge", token, { purpose }),
  registerAuthenticator: (token: string, input: RegistrationInput) => call("POST", "/webauthn/register", token, input),
  activity: (token: string) => call<{ payload: { rows: import("./phone-store").HistoryRow[] } }>("GET", "/activity?page=1&pageSize=50", token),
  report: (token: string, events: import("./phone-store").PendingEvent[]) => call("POST", "/activity", token, { events }),
  firmware: (token: string) => call<{ payload: PhoneFirmware }>("GET", "/firmware", token),
  startFirmware: (token: string, deviceId: number) => call<{ message: string; payload: { releaseId: number; version: string } }>("POST", "/firmware/start", token, { deviceId }),
  lockdown: (token: string) => call<{ payload: PhoneLockdown }>("GET", "/lockdown", token),
  /** The second step of the phone's confirmation: the plan, confirmed. */
  startLockdown: (token: string, planId: number) =>
    call<{ message: string; payload: { epoch: number; endsAt: number | null } }>("POST", "/lockdown/start", token, { planId, confirm: true }),
  endLockdown: (token: string) => call<{ message: string }>("POST", "/lockdown/end", token),
  logout: (token: string) => call("POST", "/logout", token),
  /** A guest's link, opened or refreshed: no session, the link's token and this phone's installation id. */
  openPass: (token: string, installationId: string) => call<{ payload: import("./phone-store").GuestPass }>("POST", "/visitorPass/open", null, { token, installationId }),
};
