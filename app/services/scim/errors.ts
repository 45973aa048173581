/** SCIM's error answer (RFC 7644 §3.12) and its media type. */
export const SCIM_MEDIA_TYPE = "application/scim+json";
export const ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error";

export type ScimType = "invalidFilter" | "tooMany" | "uniqueness" | "mutability" | "invalidSyntax" | "invalidPath" | "noTarget" | "invalidValue" | "invalidVers" | "sensitive";

/** Thrown anywhere in a SCIM call; the dispatcher answers it as SCIM's error body with this status. */
export class ScimError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 412 | 413 | 415 | 500 | 501,
    readonly detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
  }
}

export const scimJson = (status: number, body: unknown, headers?: HeadersInit) =>
  new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { "Content-Type": `${SCIM_MEDIA_TYPE}; charset=utf-8`, "Cache-Control": "no-store", ...headers },
  });

export const scimErrorBody = (status: number, detail: string, scimType?: ScimType) => ({
  schemas: [ERROR_SCHEMA],
  status: String(status),
  ...(scimType && { scimType }),
  detail,
});

export const scimErrorResponse = (e: ScimError, headers?: HeadersInit) => scimJson(e.status, scimErrorBody(e.status, e.detail, e.scimType), headers);

export const invalidValue = (detail: string): never => {
  throw new ScimError(400, detail, "invalidValue");
};
