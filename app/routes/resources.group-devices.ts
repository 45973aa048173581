import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { devicesOutsideGroup } from "~/services/device-groups.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";

/**
 * A page of the devices outside a group for the group page's picker (`?groupId=&q=&page=`). Only for
 * those who may change groups; another company's group is a 404.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "device_group", "modify");
  const query = Object.fromEntries(new URL(request.url).searchParams);
  try {
    const page = await devicesOutsideGroup(getDb(context), auth, { groupId: Number(query.groupId), q: query.q ?? "", page: Number(query.page ?? 1) });
    return Response.json(page, { headers: { "Cache-Control": "no-store" } });
  } catch (e) {
    if (e instanceof ServiceError) return Response.json({ message: e.message }, { status: e.status });
    throw e;
  }
}
