import { z } from "zod";

/** On for the spec's '1', JSON `true`/`1`, "true" and an HTML checkbox's "on"; anything else is off. */
export const isOn = (v: unknown) => v === true || v === 1 || v === "1" || v === "true" || v === "on";

/** A form or API on/off field; absent (or empty) takes `fallback`, so an unchecked box posts nothing and reads as off. */
export const checkbox = (fallback = false) => z.preprocess((v) => (v === undefined || v === "" ? fallback : isOn(v)), z.boolean());
