import { openApiDocument } from "~/api/openapi.server";
import { json } from "~/api/dispatch.server";

export const loader = () => json(200, openApiDocument());
