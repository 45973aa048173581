/** The phone app's calls to /api/mobile (bearer token of the phone's session). */
export class PhoneApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
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
  const json = (await res.json().catch(() => ({}))) as { message?: string; payload?: unknown; token?: string };
  if (!res.ok) throw new PhoneApiError(res.status, json.message ?? `HTTP ${res.status}`);
  return json as T;
}

export const phoneApi = {
  login: (input: Record<string, unknown>) =>
    call<{ token: string; payload: { dispay_name: string; settings: import("./phone-store").PhoneSettings } }>("POST", "/login", null, input),
  keys: (token: string) => call<{ payload: import("./phone-store").HeldKeys & { now: number } }>("GET", "/keys", token),
  activity: (token: string) => call<{ payload: { rows: import("./phone-store").HistoryRow[] } }>("GET", "/activity?page=1&pageSize=50", token),
  report: (token: string, events: import("./phone-store").PendingEvent[]) => call("POST", "/activity", token, { events }),
  logout: (token: string) => call("POST", "/logout", token),
};
