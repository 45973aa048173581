import { type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { otaIdSchema } from "~/schemas/firmware";
import { releaseDownload } from "~/services/firmware.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";

/** The zip behind a release's download link on /ota. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company");
  const parsed = otaIdSchema.safeParse({ id: params.id });
  if (!parsed.success) throw new Response("Not found", { status: 404 });
  try {
    return await releaseDownload(getDb(context), context.cloudflare.env.FIRMWARE, auth, parsed.data.id);
  } catch (e) {
    if (e instanceof ServiceError) throw new Response(e.message, { status: e.status });
    throw e;
  }
}
