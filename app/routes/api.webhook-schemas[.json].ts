import { json } from "~/api/dispatch.server";
import { webhookSchemasDocument } from "~/api/webhook-schemas.server";

export const loader = () => json(200, webhookSchemasDocument());
