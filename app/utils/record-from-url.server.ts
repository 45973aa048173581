import { redirect } from "@remix-run/cloudflare";
import { ServiceError } from "~/utils/errors.server";

/** The positive integer in `?param=`, or null (absent, not a number, zero or negative). */
export function idFromUrl(request: Request, param = "id"): number | null {
  const id = Number(new URL(request.url).searchParams.get(param));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * What a modify or details page loads for the record named in its URL (`?id=…`, or `param`).
 * Without a usable id the page goes back to its list; when `load` throws a 404 (no such row, or
 * another company's) the page goes back to the list too, or answers 404 with `notFound: "404"`.
 *
 *   return loadRecord(request, { list: "/role" }, async (id) => ({ role: await getRoleDetails(db, auth, id) }));
 */
export async function loadRecord<T>(request: Request, o: { list: string; param?: string; notFound?: "list" | "404" }, load: (id: number) => Promise<T>): Promise<T> {
  const id = idFromUrl(request, o.param);
  if (id === null) throw redirect(o.list);
  try {
    return await load(id);
  } catch (e) {
    if (!(e instanceof ServiceError) || e.status !== 404) throw e;
    if (o.notFound === "404") throw new Response(e.message, { status: 404 });
    throw redirect(o.list);
  }
}
