/**
 * What the phone app keeps on the phone (localStorage): its installation id, its session, the last keys
 * it fetched with their signed credentials, its history, and unlock attempts not yet reported. Held keys
 * keep working offline until their credentials expire.
 */
export type PhoneSettings = { multiPhoneLogin: boolean; offlineReconnectHours: number; temporaryEkeyHours: number; biometricRequired: boolean; twoFactorRequired: boolean };
export type PhoneSession = { token: string; userName: string; companyId: string; displayName: string; settings: PhoneSettings };
export type HeldKey = {
  id: number;
  kind: "ekey" | "group";
  name: string;
  doors: { id: number; name: string }[];
  window: Record<string, unknown>;
  invalid: boolean;
  credential: { token: string; id: string; issuedAt: number; expiresAt: number } | null;
};
/** `lockdownState`: the company's signed lockdown state, presented with every credential (absent in an older cache). */
export type HeldKeys = { keys: HeldKey[]; fetchedAt: number; refreshBy: number; lockdownState?: string | null };
export type HistoryRow = { id: number; at: number; name: string; summary: string };
export type PendingEvent = { eventId: string; type: "unlock"; deviceId: number; keyId: number; allowed: boolean; reason: string; credentialId?: string; at: number };

/**
 * A guest's visitor pass (decision 0096): the link's token (the phone refreshes the credential with it
 * while online) and the pass as the console answered it. Kept apart from any account: signing out keeps it.
 */
export type GuestPass = {
  id: string;
  guestName: string;
  language: "en" | "es";
  company: string;
  hostName: string;
  doors: { id: number; name: string }[];
  startDate: string;
  endDate: string;
  startTime: string;
  endTime: string;
  tz: string;
  window: Record<string, unknown>;
  oneEntry: boolean;
  used: boolean;
  credential: { token: string; id: string; issuedAt: number; expiresAt: number } | null;
  refreshBy: number;
};
export type HeldPass = { token: string; pass: GuestPass; fetchedAt: number };

const K = {
  installation: "phone.installationId",
  session: "phone.session",
  keys: "phone.keys",
  history: "phone.history",
  pending: "phone.pending",
  guestPass: "phone.guestPass",
} as const;

function read<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}
const write = (key: string, value: unknown) => localStorage.setItem(key, JSON.stringify(value));

/** Made once per installation of the app; the console binds a user to it when one phone is allowed. */
export function installationId(): string {
  let id = localStorage.getItem(K.installation);
  if (!id) {
    id = `web-${crypto.randomUUID()}`;
    localStorage.setItem(K.installation, id);
  }
  return id;
}

const REFUSED_KEY = "phone.refusedSignIn";
/** A refused sign-in: the server's message and its error code ('single-device', '2fa-required'), when it sent one. */
export type RefusedSignIn = { message: string; code: string | null };

const CODE_STEP_KEY = "phone.codeStep";
/**
 * A sign-in waiting for its code (the console answered 402): whom it is for and where the code went
 * (the e-mail address, or the masked phone number once it was texted). The password is not kept.
 */
export type CodeStep = { companyId: string; userName: string; email: string; phone: string; channel: "email" | "text" };

export const phoneStore = {
  session: () => read<PhoneSession>(K.session),
  setSession: (s: PhoneSession) => write(K.session, s),
  keys: () => read<HeldKeys>(K.keys),
  setKeys: (k: HeldKeys) => write(K.keys, k),
  history: () => read<HistoryRow[]>(K.history) ?? [],
  setHistory: (h: HistoryRow[]) => write(K.history, h),
  pending: () => read<PendingEvent[]>(K.pending) ?? [],
  guestPass: () => read<HeldPass>(K.guestPass),
  setGuestPass: (p: HeldPass | null) => (p ? write(K.guestPass, p) : localStorage.removeItem(K.guestPass)),
  setPending: (p: PendingEvent[]) => write(K.pending, p.slice(-100)),
  /**
   * Why the sign-in after setting a password was refused, for /m's sign-in screen to show once. Kept for
   * this tab only (sessionStorage), and only this origin's pages can write it, so no link can plant a text.
   */
  setRefusedSignIn: (refused: RefusedSignIn) => sessionStorage.setItem(REFUSED_KEY, JSON.stringify(refused)),
  takeRefusedSignIn(): RefusedSignIn | null {
    const raw = sessionStorage.getItem(REFUSED_KEY);
    sessionStorage.removeItem(REFUSED_KEY);
    try {
      return raw ? (JSON.parse(raw) as RefusedSignIn) : null;
    } catch {
      return null;
    }
  },
  /** The code step survives a reload of this tab (the person may switch to the mail app and back). */
  codeStep: () => {
    try {
      return JSON.parse(sessionStorage.getItem(CODE_STEP_KEY) ?? "null") as CodeStep | null;
    } catch {
      return null;
    }
  },
  setCodeStep: (step: CodeStep | null) => (step ? sessionStorage.setItem(CODE_STEP_KEY, JSON.stringify(step)) : sessionStorage.removeItem(CODE_STEP_KEY)),
  /** Signing out forgets everything of the account, not the installation id. */
  clear() {
    for (const key of [K.session, K.keys, K.history, K.pending]) localStorage.removeItem(key);
  },
};
