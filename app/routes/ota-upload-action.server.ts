import type { AppLoadContext } from "@remix-run/cloudflare";
import { addOtaSchema } from "~/schemas/firmware";
import { createRelease } from "~/services/firmware.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction } from "~/utils/form-action.server";

/** The upload's success answer for the page's XMLHttpRequest (the page itself redirects instead). */
export const OTA_UPLOADED = { uploaded: true } as const;

/**
 * The one OTA upload action, shared by /addota (a plain form post) and /resources/ota/upload (the
 * page's XMLHttpRequest, which needs upload progress): the multipart post is parsed by Conform with
 * the form's schema, and a refusal is Conform's reply with the service's field errors on their
 * fields. `onStored` answers a stored release.
 */
export async function otaUploadAction<R>(request: Request, context: AppLoadContext, onStored: () => R | Promise<R>) {
  const auth = await requireModule(request, context, "company", "add");
  // A body that is not multipart reads as an empty form: a 400 with the schema's messages, not a 500.
  const formData = await request.formData().catch(() => new FormData());
  return formAction(
    request,
    addOtaSchema,
    async (value) => {
      await createRelease(getDb(context), context.cloudflare.env.FIRMWARE, auth, value, nowMs());
      return onStored();
    },
    { formData },
  );
}
