/**
 * An e-mail address that may break before its "@", so a long address wraps in a narrow column instead
 * of widening the table (decision 0038).
 */
export function EmailText({ email }: { email: string }) {
  const at = email.indexOf("@");
  if (at <= 0) return <>{email}</>;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}

/** The same as a mailto link. */
export function EmailLink({ email }: { email: string }) {
  return (
    <a href={`mailto:${email}`} className="text-primary hover:underline">
      <EmailText email={email} />
    </a>
  );
}
