const BASE = "http://redirect.invalid";
const MAX_REDIRECT = 2000;

/**
 * Only same-site paths may be redirect targets. Browsers read `/\host` as `//host`, and some
 * decode before they resolve, so a target is refused (→ `fallback`) when it, or any decoding of it,
 * starts with `//` or `/\`, holds a backslash or a control character, resolves to another origin, or is
 * longer than `MAX_REDIRECT` characters.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.length > MAX_REDIRECT) return fallback;
  const forms = [to];
  let current = to;
  for (let i = 0; i < 3; i++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return fallback;
    }
    if (decoded === current) break;
    forms.push((current = decoded));
  }
  // eslint-disable-next-line no-control-regex
  if (forms.some((f) => f.startsWith("//") || f.includes("\\") || /[\u0000-\u001f\u007f]/.test(f))) return fallback;
  let url: URL;
  try {
    url = new URL(to, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  return url.pathname + url.search + url.hash;
}
