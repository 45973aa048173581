import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { dispatch } from "~/api/dispatch.server";
import { USER_BASE, userEndpoints } from "~/api/registry.server";

export const loader = ({ request, context }: LoaderFunctionArgs) => dispatch(request, context, USER_BASE, userEndpoints);
export const action = ({ request, context }: ActionFunctionArgs) => dispatch(request, context, USER_BASE, userEndpoints);
