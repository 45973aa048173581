/**
 * Mail and texts a call has queued are sent after the answer: the endpoints start the delivery
 * with `waitUntil`, so the caller does not wait for the mail server or the text provider.
 */
import { deliverQueued } from "~/services/deliver-queued.server";
import { ServiceError } from "~/utils/errors.server";
import type { ApiContext } from "./define.server";

type Delivery = Pick<ApiContext, "env" | "waitUntil">;

/** Awaits `work`, then starts sending the mail and texts it queued. */
export async function deliveringMessages<T>(ctx: Delivery, work: Promise<T>): Promise<T> {
  const result = await work;
  deliverQueued(ctx.env, ctx.waitUntil);
  return result;
}

/** A sign-in whose 402 answer has just queued the sign-in code: the code is sent and the 402 stands. */
export async function sendingSignInCode<T>(ctx: Delivery, signIn: Promise<T>): Promise<T> {
  try {
    return await signIn;
  } catch (e) {
    if (e instanceof ServiceError && e.details.errorCode === "2fa-required") deliverQueued(ctx.env, ctx.waitUntil);
    throw e;
  }
}
