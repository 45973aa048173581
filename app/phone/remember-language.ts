/**
 * Switches the phone app's language and stores the choice in the console's language cookie (through
 * /resources/language, as the console's own switch), so a reload or the next visit is served in it.
 * Offline the switch holds for this visit only.
 */
export function switchLanguage(i18n: { changeLanguage: (lng: string) => unknown }, lng: "en" | "es") {
  void i18n.changeLanguage(lng);
  const form = new FormData();
  form.set("lng", lng);
  form.set("redirectTo", "/m");
  fetch("/resources/language", { method: "POST", body: form, redirect: "manual" }).catch(() => undefined);
}
