import { redirect, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LocationMap, mapLinks, MAP_ZOOM } from "~/components/support/location-map";
import { ticketPageData } from "~/routes/support-ticket-page.server";
import { Button } from "~/components/ui/button";
import { PageHeader } from "~/components/ui/page-header";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb } from "~/utils/db.server";

export const meta: MetaFunction = () => [{ title: "Ticket location" }];
export const links: LinksFunction = mapLinks;

/** The ticket's position on a full map; without a usable position (or tiles), back to the ticket. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, ["support", "company"]);
  const page = await ticketPageData(getDb(context), auth, context.cloudflare.env, request);
  const { ticket, tiles } = page;
  if (!page.locationValid || !tiles) throw redirect(`/supportTicketDetails?id=${ticket.id}`);
  return { id: ticket.id, number: ticket.ticketNumber, latitude: ticket.latitude!, longitude: ticket.longitude!, tiles };
}

export default function SupportTicketGpsPage() {
  const { id, number, latitude, longitude, tiles } = useLoaderData<typeof loader>();
  const { t } = useTranslation("support");
  return (
    <div className="grid gap-4">
      <PageHeader
        title={t("gpsTitle", { number })}
        description={`${latitude}, ${longitude}`}
        actions={
          <Button asChild variant="outline">
            <Link to={`/supportTicketDetails?id=${id}`}>{t("back")}</Link>
          </Button>
        }
        className="pb-0"
      />
      <LocationMap
        latitude={latitude}
        longitude={longitude}
        zoom={MAP_ZOOM}
        tiles={tiles}
        label={t("fullMap", { number })}
        markerLabel={t("marker", { number })}
        className="h-[70vh] min-h-80 w-full"
        testId="full-map"
      />
    </div>
  );
}
