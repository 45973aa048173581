import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { dispatch } from "~/api/dispatch.server";
import { GATEWAY_BASE, GATEWAY_DIALECT, gatewayEndpoints } from "~/api/endpoints/gateway.server";

const options = { dialect: GATEWAY_DIALECT };

export const loader = ({ request, context }: LoaderFunctionArgs) => dispatch(request, context, GATEWAY_BASE, gatewayEndpoints, options);
export const action = ({ request, context }: ActionFunctionArgs) => dispatch(request, context, GATEWAY_BASE, gatewayEndpoints, options);
