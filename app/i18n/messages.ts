import type { TFunction } from "i18next";

/**
 * Server messages are the spec's English texts (the admin API returns them as they are). The
 * console shows them through a namespace that uses the English text itself as the key: the
 * feature's own namespace first, then the shared `messages` namespace.
 */
export function translateMessage(t: TFunction, message: string, ns?: string): string {
  return t(message, { ns: ns ? [ns, "messages"] : "messages", keySeparator: false, nsSeparator: false, defaultValue: message });
}
