/**
 * The one error the service layer throws. Pages turn it into form errors or a toast; the admin
 * API turns it into `{message, payload}` with this status. Anything else is a bug (500).
 */
export class ServiceError extends Error {
  constructor(
    readonly status: 400 | 401 | 402 | 403 | 404 | 409 | 410 | 413 | 422 | 426 | 429 | 503,
    message: string,
    /** `extra`: top-level fields some spec answers carry beside the message (login's 402 `phoneNumber`). */
    readonly details: { errorCode?: string; fieldErrors?: Record<string, string[]>; payload?: unknown; extra?: Record<string, unknown> } = {},
  ) {
    super(message);
  }
}

export const notFound = (what = "Not found"): never => {
  throw new ServiceError(404, what);
};
export const forbidden = (what = "You do not have permission to do this"): never => {
  throw new ServiceError(403, what);
};
