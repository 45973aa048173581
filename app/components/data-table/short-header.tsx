/**
 * A column header with a shorter visible text ("Serial") and its full name ("Serial number") for
 * assistive technology and as a tooltip, so a long header does not widen a narrow column.
 */
export function shortHeader(short: string, full: string) {
  if (short === full) return () => full;
  return () => (
    <>
      <span aria-hidden="true" title={full}>
        {short}
      </span>
      <span className="sr-only">{full}</span>
    </>
  );
}
