import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { dispatch } from "~/api/dispatch.server";
import { MOBILE_BASE, mobileEndpoints } from "~/api/registry.server";

const MOBILE_ONLY = { sessionKinds: ["mobile"] } as const;

export const loader = ({ request, context }: LoaderFunctionArgs) => dispatch(request, context, MOBILE_BASE, mobileEndpoints, MOBILE_ONLY);
export const action = ({ request, context }: ActionFunctionArgs) => dispatch(request, context, MOBILE_BASE, mobileEndpoints, MOBILE_ONLY);
