import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { EXPORT_FILE, TEMPLATE_FILE, userExportStream, userTemplate } from "~/services/user-export.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb } from "~/utils/db.server";
import { csvAttachment } from "~/utils/http.server";

/** /users' Export (every live user, streamed) and /importUsers' template (`?template=1`, the header line alone), decision 0089. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "users");
  if (new URL(request.url).searchParams.has("template")) return csvAttachment(await userTemplate(getDb(context), auth), TEMPLATE_FILE);
  return csvAttachment(userExportStream(getDb(context), auth), EXPORT_FILE);
}
