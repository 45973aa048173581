/**
 * The admin API is a table of endpoints. Each declares its method, path (relative to its base),
 * zod schemas and handler; the dispatcher validates, authenticates and wraps the envelope, and
 * the OpenAPI document is generated from the same table, so docs and checks cannot drift.
 */
import type { z, ZodTypeAny } from "zod";
import type { Core } from "~core";
import type { Auth } from "~/utils/auth-guards.server";
import type { Db } from "~/utils/db.server";
import type { Action, ModuleKey } from "~/utils/permissions";

export type Method = "GET" | "POST" | "PUT" | "DELETE";

export type ApiContext<Q = unknown, B = unknown> = {
  request: Request;
  env: Env;
  db: Db;
  core: Core;
  /** Present on every endpoint whose `auth` is "token". */
  auth: Auth;
  /** The calling gateway's id, on every endpoint whose `auth` is "gateway". */
  gatewayId: number;
  /** The request's values of the path's `:name` segments, decoded. */
  params: Record<string, string>;
  query: Q;
  body: B;
  now: number;
  waitUntil: (p: Promise<unknown>) => void;
};

export type ApiResult = {
  message?: string;
  payload?: unknown;
  /** Extra top-level fields some spec calls return beside the envelope (token, groupKeys, ...). */
  extra?: Record<string, unknown>;
};

/**
 * Who may make a token call. The dispatcher checks it before it reads the query or the body, so a caller
 * without the right hears 403, never what is wrong with input he may not send. The service checks again.
 * - `modules`/`action`: the module right (`can`): any of the modules, with any of the actions.
 * - `superAdmin`: only a super admin of the company.
 * - `guard`: the service's own rule that needs no input (company type, installer), run after the right.
 * - "signed-in": any session the table accepts, or an API key (reference reads, the caller's own rights).
 * - "own-account": the same, but a person's session only: the caller's own account (sign-out, sign-in codes).
 * - `rule`: no module decides, a rule of the company's own does (who may host guests), checked by `guard`.
 */
export type Permission =
  | "signed-in"
  | "own-account"
  | { rule: string; guard: (db: Db, auth: Auth) => void | Promise<void> }
  | {
      modules: ModuleKey | readonly ModuleKey[];
      action?: Action | readonly Action[];
      superAdmin?: true;
      guard?: (db: Db, auth: Auth) => void | Promise<void>;
    };

/**
 * The payload an endpoint's documented `response` promises: tsc refuses a handler whose payload does not fit
 * it, or that answers one when the schema documents none (the typed SDK is generated from these schemas).
 */
type PromisedPayload<R extends ZodTypeAny> = z.infer<R> extends { payload: infer P } ? P : undefined;

export type Endpoint<Q extends ZodTypeAny = ZodTypeAny, B extends ZodTypeAny = ZodTypeAny, R extends ZodTypeAny = ZodTypeAny> = {
  method: Method;
  /** Relative to the table's base; a `:name` segment matches any one segment (`ctx.params.name`). */
  path: string;
  summary: string;
  tag: string;
  /** "token": a user session or, on the admin API, an API key (decision 0075); "gateway": the gateway secret (docs/gateway-api.md). */
  auth: "public" | "token" | "gateway";
  /** Required on every "token" endpoint: the dispatcher refuses one without it (tests/workers/permission-first.test.ts). */
  permission?: Permission;
  query?: Q;
  body?: B;
  /** Body is multipart/form-data (file uploads); `body` then validates the text fields. */
  multipart?: boolean;
  /** An empty body is malformed JSON rather than `{}`. */
  bodyRequired?: boolean;
  /** The success answer's schema (envelope included), for the OpenAPI document and the typed SDK. */
  response?: R;
  /** The answer is a file (its media type), returned by the handler as a Response instead of the envelope. */
  file?: string;
  handler: (ctx: ApiContext<z.infer<Q>, z.infer<B>>) => Promise<(ApiResult & { payload?: PromisedPayload<R> }) | Response>;
};

/** Keeps each endpoint's handler typed by its own schemas inside a heterogeneous table. */
export function endpoint<Q extends ZodTypeAny, B extends ZodTypeAny, R extends ZodTypeAny = ZodTypeAny>(e: Endpoint<Q, B, R>): Endpoint {
  return e as unknown as Endpoint;
}
