import type { TFunction } from "i18next";

/**
 * Server messages are the spec's English texts (the admin API returns them as they are);
 * the console shows them through the `messages` namespace, keyed by the English text itself.
 */
export function translateMessage(t: TFunction, message: string): string {
  return t(message, { ns: "messages", keySeparator: false, nsSeparator: false, defaultValue: message });
}
