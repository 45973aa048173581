import type { TFunction } from "i18next";

/**
 * A translator that translates each distinct call once. A list asks for the same texts in every row
 * (a column's name inside each cell's label, the same trigger or activity name), and i18next resolves
 * every call anew: a page of the activity log is about 1,500 calls for a few hundred distinct texts.
 * The cache lives as long as the returned function, e.g. one memoised column set.
 */
export function memoT(t: TFunction): TFunction {
  const seen = new Map<string, string>();
  const cached = (key: string, options?: Record<string, unknown>): string => {
    const k = options === undefined ? key : `${key}\u0000${JSON.stringify(options)}`;
    let text = seen.get(k);
    if (text === undefined) seen.set(k, (text = String(t(key, options))));
    return text;
  };
  return cached as unknown as TFunction;
}
