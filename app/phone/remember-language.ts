/** A language chosen whose cookie has not reached the server yet (the phone was offline). */
const PENDING = "phone.languageToStore";

/**
 * Switches the phone app's language and stores the choice in the console's language cookie (through
 * /resources/language, as the console's own switch), so a reload or the next visit is served in it.
 * A choice made offline is stored once the phone is answered again (`storePendingLanguage`).
 */
export function switchLanguage(i18n: { changeLanguage: (lng: string) => unknown }, lng: "en" | "es") {
  void i18n.changeLanguage(lng);
  storeLanguage(lng);
}

function storeLanguage(lng: "en" | "es") {
  localStorage.setItem(PENDING, lng);
  const form = new FormData();
  form.set("lng", lng);
  form.set("redirectTo", "/m");
  fetch("/resources/language", { method: "POST", body: form, redirect: "manual" })
    .then(() => {
      if (localStorage.getItem(PENDING) === lng) localStorage.removeItem(PENDING);
    })
    .catch(() => undefined);
}

/** Stores a choice an earlier switch could not (called whenever the server answers the phone). */
export function storePendingLanguage() {
  const lng = localStorage.getItem(PENDING);
  if (lng === "en" || lng === "es") storeLanguage(lng);
}
