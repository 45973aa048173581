/**
 * Parse options for a schema written for the admin API's strings (device groups, e-key assignment,
 * roles): Conform hands it the posted strings unchanged instead of turning empty fields into
 * `undefined`, so its own messages and whole-form checks apply. Used by the form and its action alike.
 */
export const AS_POSTED = { disableAutoCoercion: true } as const;
