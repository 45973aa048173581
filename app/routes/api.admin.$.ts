import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { dispatch } from "~/api/dispatch.server";
import { ADMIN_BASE, adminEndpoints } from "~/api/registry.server";

export const loader = ({ request, context }: LoaderFunctionArgs) => dispatch(request, context, ADMIN_BASE, adminEndpoints, { apiKeys: true });
export const action = ({ request, context }: ActionFunctionArgs) => dispatch(request, context, ADMIN_BASE, adminEndpoints, { apiKeys: true });
