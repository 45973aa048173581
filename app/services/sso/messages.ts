/** The texts single sign-on refuses with (the admin API returns them as they are; pages translate them in `messages`). */
export const SSO_MSG = {
  failed: "Single sign-on failed; try again or ask your administrator",
  replayed: "This sign-in was already used; start again",
  expired: "The sign-in took too long or was already used; start again",
  noAccount: "No console account matches your identity provider account; ask your administrator",
  noRole: "None of your identity provider groups gives access to the console; ask your administrator",
  notEnabled: "Single sign-on is not set up for this company",
  required: "This company signs in through single sign-on; use “Continue with single sign-on”",
  breakGlassRequired: "Choose a break-glass super admin before requiring single sign-on",
  breakGlassNotSuperAdmin: "The break-glass user must be a super admin of this company",
  roleNotFound: "The role does not exist in this company",
  saved: "Single sign-on settings saved",
} as const;
