import type { TFunction } from "i18next";

/**
 * zod's own texts, for checks that carry no message of ours (an id, a list's size, a wrong type sent
 * by hand). They name values, so they are matched by shape and shown through a generic text in the
 * `messages` namespace; English keeps zod's wording, as the admin API does.
 */
const ZOD_TEXTS: [RegExp, string][] = [
  [/^Required$/, "zod.required"],
  [/^String must contain at most (\d+) character\(s\)$/, "zod.tooLong"],
  [/^String must contain at least (\d+) character\(s\)$/, "zod.tooShort"],
  [/^String must contain exactly (\d+) character\(s\)$/, "zod.length"],
  [/^Array must contain at most (\d+) element\(s\)$/, "zod.tooMany"],
  [/^Array must contain at least (\d+) element\(s\)$/, "zod.tooFew"],
  [/^Array must contain exactly (\d+) element\(s\)$/, "zod.count"],
  [/^Number must be greater than or equal to (\S+)$/, "zod.min"],
  [/^Number must be greater than (\S+)$/, "zod.above"],
  [/^Number must be less than or equal to (\S+)$/, "zod.max"],
  [/^Number must be less than (\S+)$/, "zod.below"],
  [/^Expected integer, received float$/, "zod.integer"],
  [/^Expected number, received \w+$/, "zod.number"],
  [
    /^(Expected .+, received \w+|Invalid enum value\. .*|Invalid literal value, .*|Invalid discriminator value\. .*|Invalid input|Invalid|Invalid (email|url|uuid|date|datetime))$/s,
    "zod.invalid",
  ],
];

/**
 * Server messages are the spec's English texts (the admin API returns them as they are). The
 * console shows them through a namespace that uses the English text itself as the key: the
 * feature's own namespace first, then the shared `messages` namespace; zod's own texts last.
 */
export function translateMessage(t: TFunction, message: string, ns?: string): string {
  const text = t(message, { ns: ns ? [ns, "messages"] : "messages", keySeparator: false, nsSeparator: false, defaultValue: message });
  if (text !== message) return text;
  for (const [shape, key] of ZOD_TEXTS) {
    const m = shape.exec(message);
    if (m) return t(key, { ns: "messages", keySeparator: false, nsSeparator: false, n: m[1], defaultValue: message });
  }
  return text;
}
