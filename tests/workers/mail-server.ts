import { inject } from "vitest";

/**
 * A real SMTP server of this test file's own (started in Node by tests/workers/smtp-global-setup.ts):
 * its port, for the mailer settings, and its inbox, which lists (GET) and forgets (DELETE) what it
 * received. Files running at the same time never see each other's mail.
 */
export async function ownMailServer(): Promise<{ smtpPort: number; inboxUrl: string }> {
  const res = await fetch(inject("mailServers"), { method: "POST" });
  if (!res.ok) throw new Error(`no mail server for this file: ${res.status}`);
  return (await res.json()) as { smtpPort: number; inboxUrl: string };
}
