import { useCallback, useEffect, useState } from "react";
import { keepForOffline } from "./offline-cache";
import { PhoneApiError, phoneApi, type PhoneFirmware, type PhoneLockdown } from "./phone-api";
import { phoneStore, type HeldKeys, type HistoryRow, type PendingEvent, type PhoneSession } from "./phone-store";
import { assertForConsole, forgetPlatformCredential, type UserVerification } from "./user-verification";

const TICK_MS = 30_000;

/**
 * The phone's state: what its storage holds (session, keys, history), whether it is online, the
 * clock the key cards read, and the refresh from /api/mobile that runs whenever it is signed in and online.
 */
export function usePhoneSession() {
  const [session, setSession] = useState<PhoneSession | null>(null);
  const [held, setHeld] = useState<HeldKeys | null>(null);
  const [history, setHistory] = useState<HistoryRow[]>([]);
  const [online, setOnline] = useState(true);
  const [now, setNow] = useState(() => Date.now());
  const [loaded, setLoaded] = useState(false);
  const [bioRefused, setBioRefused] = useState<UserVerification | null>(null);
  const [firmware, setFirmware] = useState<PhoneFirmware | null>(null);
  const [lockdown, setLockdown] = useState<PhoneLockdown | null>(null);

  useEffect(() => {
    setSession(phoneStore.session());
    setHeld(phoneStore.keys());
    setHistory(phoneStore.history());
    setOnline(navigator.onLine);
    setLoaded(true);
    keepForOffline();
    const up = () => setOnline(true);
    const down = () => setOnline(false);
    window.addEventListener("online", up);
    window.addEventListener("offline", down);
    const tick = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => {
      window.removeEventListener("online", up);
      window.removeEventListener("offline", down);
      clearInterval(tick);
    };
  }, []);

  const signOutLocally = useCallback(() => {
    phoneStore.clear();
    forgetPlatformCredential();
    setSession(null);
    setHeld(null);
    setHistory([]);
    setFirmware(null);
    setLockdown(null);
  }, []);

  /** The firmware of the keys' doors: shown while online only, so not kept on the phone. */
  const refreshFirmware = useCallback(async (s: PhoneSession) => setFirmware((await phoneApi.firmware(s.token)).payload), []);
  /** The plans this user may start and the lockdown in force: shown while online only, like the firmware. */
  const refreshLockdown = useCallback(async (s: PhoneSession) => setLockdown((await phoneApi.lockdown(s.token)).payload), []);

  /** Fresh keys and credentials (with the signed lockdown state), history, the lockdown screen, and the unlock attempts made while offline. */
  const refresh = useCallback(
    async (s: PhoneSession) => {
      try {
        const pending = phoneStore.pending();
        if (pending.length) {
          await phoneApi.report(s.token, pending);
          phoneStore.setPending([]);
        }
        // First, and whatever becomes of the keys: a lockdown in force is what the person most needs to see.
        await refreshLockdown(s);
        setOnline(true);
        const keys = await fetchKeys(s);
        if (!keys) return;
        if (keys.settings.biometricRequired !== s.settings.biometricRequired) {
          const updated = { ...s, settings: keys.settings };
          phoneStore.setSession(updated);
          setSession(updated);
        }
        const stored = { keys: keys.keys, fetchedAt: keys.now, refreshBy: keys.refreshBy, lockdownState: keys.lockdownState };
        phoneStore.setKeys(stored);
        setHeld(stored);
        const rows = (await phoneApi.activity(s.token)).payload.rows;
        phoneStore.setHistory(rows);
        setHistory(rows);
        setNow(Date.now());
        await refreshFirmware(s);
      } catch (e) {
        // Signed out elsewhere (forgotten phone, de-activated account): what the phone held is no longer its own.
        if (e instanceof PhoneApiError && e.status === 401) signOutLocally();
        // No answer at all: offline, whatever navigator.onLine says (it stays true on a network without a way out).
        else if (e instanceof TypeError) setOnline(false);
      }
    },
    [signOutLocally, refreshFirmware, refreshLockdown],
  );

  /**
   * Keys with fresh credentials. With biometrics required (or newly so, which the console says), the phone
   * verifies its user over a console challenge and the console signs only after checking that; a refusal
   * keeps the keys already held and says why.
   */
  async function fetchKeys(s: PhoneSession) {
    if (!s.settings.biometricRequired) {
      try {
        return (await phoneApi.keys(s.token)).payload;
      } catch (e) {
        if (!(e instanceof PhoneApiError && e.code === "biometric-required")) throw e;
      }
    }
    const r = await assertForConsole(s.token, s.userName);
    if ("refused" in r) {
      setBioRefused(r.refused);
      return null;
    }
    try {
      const keys = (await phoneApi.keysVerified(s.token, r.assertion)).payload;
      setBioRefused(null);
      return keys;
    } catch (e) {
      if (e instanceof PhoneApiError && e.status === 403) {
        setBioRefused("refused");
        return null;
      }
      throw e;
    }
  }

  useEffect(() => {
    if (session && online) void refresh(session);
  }, [session, online, refresh]);

  // Found offline by a failed refresh while the browser still claims a network: try again now and then.
  useEffect(() => {
    if (online || !session) return;
    const retry = setInterval(() => navigator.onLine && void refresh(session), TICK_MS);
    return () => clearInterval(retry);
  }, [online, session, refresh]);

  function recordResult(e: PendingEvent) {
    phoneStore.setPending([...phoneStore.pending(), e]);
    if (session && navigator.onLine) void refresh(session);
  }

  async function signOut() {
    if (session && navigator.onLine) await phoneApi.logout(session.token).catch(() => undefined);
    signOutLocally();
  }

  return { session, setSession, held, history, online, now, loaded, bioRefused, firmware, lockdown, refresh, refreshFirmware, refreshLockdown, recordResult, signOut };
}
