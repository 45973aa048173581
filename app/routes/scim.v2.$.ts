import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { dispatchScim } from "~/services/scim/dispatch.server";

export const loader = ({ request, context }: LoaderFunctionArgs) => dispatchScim(request, context);
export const action = ({ request, context }: ActionFunctionArgs) => dispatchScim(request, context);
