/**
 * Where a sign-in code went, told without giving the address away: the code page and the login API's
 * answer show it to whoever typed the password (or asked again within the code's five minutes).
 */
export const maskedEmail = (email: string): string => {
  const at = email.lastIndexOf("@");
  return at > 0 ? `${email[0]}•••${email.slice(at)}` : "•••";
};

/** The last four digits only, as the activity log names a number. */
export const maskedPhone = (phone: string): string => `•••• ${phone.slice(-4)}`;
