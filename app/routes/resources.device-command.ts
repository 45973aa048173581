import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getCommand } from "~/services/device-commands.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";

/** A remote command's status for the device page to poll (`?id=`); another company's is a 404. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "devices");
  try {
    const command = await getCommand(getDb(context), auth, { commandId: new URL(request.url).searchParams.get("id") }, nowMs());
    return Response.json(
      { id: command.id, status: command.status, error: command.error, createdAt: command.createdAt, finishedAt: command.finishedAt },
      { headers: { "Cache-Control": "no-store" } },
    );
  } catch (e) {
    if (e instanceof ServiceError) return Response.json({ message: e.message }, { status: e.status });
    throw e;
  }
}
