import { json } from "~/api/dispatch.server";

/** Any other /api path answers JSON, never the console's HTML 404 page. */
const notFound = ({ request }: { request: Request }) => json(404, { message: `No API call at ${new URL(request.url).pathname}` });
export const loader = notFound;
export const action = notFound;
