import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireAuth } from "~/utils/auth-guards.server";

/**
 * Any path no page claims: for a signed-in user a 404 inside the shell (header, menus and language stay;
 * the shell's error boundary renders it); signed out, the sign-in page, which brings the user back here.
 */
export async function loader({ request, context }: LoaderFunctionArgs): Promise<never> {
  await requireAuth(request, context);
  throw new Response("Not Found", { status: 404 });
}

export default function NotFound() {
  return null;
}
