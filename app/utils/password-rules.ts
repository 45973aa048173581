/**
 * The spec's password rules: 8+ characters, lower, upper, digit and one of # ? ! @ $ % ^ & * _ -. Client-safe:
 * the server refuses a password that misses one, and the password fields tick them off as you type.
 */
export const PASSWORD_RULES = [
  { key: "length", test: (p: string) => p.length >= 8 },
  { key: "lower", test: (p: string) => /[a-z]/.test(p) },
  { key: "upper", test: (p: string) => /[A-Z]/.test(p) },
  { key: "digit", test: (p: string) => /\d/.test(p) },
  { key: "special", test: (p: string) => /[#?!@$%^&*_-]/.test(p) },
] as const;

export function passwordMeetsRules(p: string): boolean {
  return PASSWORD_RULES.every((r) => r.test(p));
}
