import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { OTA_UPLOADED, otaUploadAction } from "~/routes/ota-upload-action.server";

/**
 * POST only: the /addota page's XMLHttpRequest upload (it shows the upload's progress, which fetch
 * cannot). A page action would answer the page's data requests in Remix's own stream format, so this
 * route answers in JSON: `{uploaded: true}`, or Conform's reply `{result}` with the refusal's status.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const answer = await otaUploadAction(request, context, () => OTA_UPLOADED);
  if (answer instanceof Response) return answer;
  if ("uploaded" in answer) return Response.json(answer);
  return Response.json(answer.data, answer.init ?? undefined);
}
