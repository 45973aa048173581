/**
 * A mailto link that may break before its "@", so a long address wraps in a narrow column instead of
 * widening the table (decision 0038).
 */
export function EmailLink({ email }: { email: string }) {
  const at = email.indexOf("@");
  return (
    <a href={`mailto:${email}`} className="text-primary hover:underline">
      {at > 0 ? (
        <>
          {email.slice(0, at)}
          <wbr />
          {email.slice(at)}
        </>
      ) : (
        email
      )}
    </a>
  );
}
