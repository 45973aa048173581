import { type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { DetailList } from "~/components/devices/detail-list";
import { LocationMap, mapLinks } from "~/components/support/location-map";
import { ticketPageData } from "~/routes/support-ticket-page.server";
import { TicketDevices } from "~/components/support/ticket-devices";
import { TicketNotes, type NoteActionData } from "~/components/support/ticket-notes";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Button } from "~/components/ui/button";
import { LinkButton } from "~/components/ui/link-button";
import { PageHeader } from "~/components/ui/page-header";
import { translateMessage } from "~/i18n/messages";
import { SUPPORT_MSG, supportNoteSchema } from "~/schemas/support";
import { addTicketNote } from "~/services/support.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction } from "~/utils/form-action.server";
import { redirectWithMessage } from "~/utils/toast.server";
import { formatPhone, formatTicketTime, formatZonedTime, zoneAbbreviation } from "~/utils/format";
import { can } from "~/utils/permissions";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Ticket ${data.ticket.ticketNumber}` : "Support ticket" }];
export const links: LinksFunction = mapLinks;

const MODULES = ["support", "company"] as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, MODULES);
  const page = await ticketPageData(getDb(context), auth, context.cloudflare.env, request);
  // The submitter links to their user page only for someone who manages that company's users.
  const ownerLink = page.owner && !page.owner.deleted && page.ticket.companyId === auth.company.id && can(auth.permissions, "users");
  return { ...page, ownerLink, canAddNote: can(auth.permissions, MODULES, "add") };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, MODULES, "add");
  const serviceTicketId = Number(new URL(request.url).searchParams.get("id"));
  return formAction(request, supportNoteSchema, async ({ notes }) => {
    const r = await addTicketNote(getDb(context), auth, { serviceTicketId, notes }, nowMs());
    return redirectWithMessage({ request, context }, { ns: "support", message: r.message });
  });
}

export default function SupportTicketDetailsPage() {
  const { ticket, owner, company, notes, timeZone, tiles, locationValid, back, ownerLink, canAddNote } = useLoaderData<typeof loader>();
  const actionData = useActionData<NoteActionData>();
  const { t, i18n } = useTranslation("support");
  const [gpsError, setGpsError] = useState(false);
  const yesNo = (v: boolean) => (v ? t("yes") : t("no"));
  const gpsUrl = `/supportTicketGPSDetails?id=${ticket.id}`;
  const position = ticket.latitude != null && ticket.longitude != null ? `${ticket.latitude}, ${ticket.longitude}` : t("noLocation");
  const gap = ticket.sentinelDateTime != null && ticket.reportingDateTime != null ? Math.round((ticket.reportingDateTime - ticket.sentinelDateTime) / 1000) : null;

  return (
    <div className="grid grid-cols-1 gap-5">
      <PageHeader title={t("ticketTitle", { number: ticket.ticketNumber })} description={company?.name} back={{ to: back, label: t("backToTickets") }} className="pb-0" />
      <Card>
        <CardHeader>
          <CardTitle>{t("ticketSection")}</CardTitle>
        </CardHeader>
        <CardContent>
          <DetailList
            items={[
              { key: "number", label: t("ticketNumber"), value: ticket.ticketNumber },
              {
                key: "user",
                label: t("submittedBy"),
                value: ownerLink ? (
                  <LinkButton variant="link" size="inline" to={`/modifyUser?id=${ticket.userId}`}>
                    {owner?.displayName}
                  </LinkButton>
                ) : (
                  owner?.displayName
                ),
              },
              { key: "name", label: t("ownerName"), value: owner ? `${owner.firstName} ${owner.lastName}`.trim() : "" },
              { key: "phone", label: t("phone"), value: owner ? formatPhone(owner.countryCode, owner.phoneNumber) : "" },
              {
                key: "email",
                label: t("email"),
                value: owner?.email ? (
                  <a href={`mailto:${owner.email}`} className="text-primary underline-offset-4 hover:underline">
                    {owner.email}
                  </a>
                ) : (
                  ""
                ),
              },
              { key: "created", label: t("submitted"), value: `${formatTicketTime(ticket.createdAt, timeZone, i18n.language)} ${zoneAbbreviation(ticket.createdAt, timeZone)}` },
            ]}
          />
        </CardContent>
      </Card>
      <div className="grid grid-cols-1 gap-5 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>{t("mobileSection")}</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4">
            <DetailList
              items={[
                { key: "brand", label: t("brand"), value: ticket.brand },
                { key: "model", label: t("model"), value: ticket.phoneModel },
                { key: "software", label: t("softwareVersion"), value: ticket.softwareVersion },
                { key: "app", label: t("appVersion"), value: ticket.appVersion },
                { key: "mode", label: t("mode"), value: ticket.ticketMode === 1 ? t("online") : t("offline") },
                { key: "bluetooth", label: t("bluetoothEnabled"), value: yesNo(ticket.bluetoothStatus === "On") },
                { key: "bluetoothPermission", label: t("bluetoothPermission"), value: yesNo(ticket.bluetoothPermission === 1) },
                { key: "locationPermission", label: t("locationPermission"), value: yesNo(ticket.locationPermission === 1) },
                {
                  key: "gps",
                  label: t("gps"),
                  value: locationValid ? (
                    <LinkButton variant="link" size="inline" to={gpsUrl} data-testid="gps-link">
                      {position}
                    </LinkButton>
                  ) : (
                    <Button type="button" variant="link" size="inline" data-testid="gps-link" onClick={() => setGpsError(true)}>
                      {position}
                    </Button>
                  ),
                },
              ]}
            />
            {gpsError && (
              <p role="alert" className="text-sm font-medium text-destructive" data-testid="gps-error">
                {translateMessage(t, SUPPORT_MSG.invalidLocation, "support")}
              </p>
            )}
            {locationValid && tiles && (
              <LocationMap
                latitude={ticket.latitude!}
                longitude={ticket.longitude!}
                tiles={tiles}
                interactive={false}
                label={t("smallMap", { number: ticket.ticketNumber })}
                markerLabel={t("marker", { number: ticket.ticketNumber })}
                className="h-48 w-full"
                testId="small-map"
              />
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t("timesSection")}</CardTitle>
          </CardHeader>
          <CardContent>
            <DetailList
              items={[
                { key: "sentinelTime", label: t("sentinelTime"), value: formatZonedTime(ticket.sentinelDateTime, timeZone, i18n.language) },
                { key: "reportingTime", label: t("reportingTime"), value: formatZonedTime(ticket.reportingDateTime, timeZone, i18n.language) },
                { key: "timeGap", label: t("timeGap"), value: gap == null ? "" : t("seconds", { count: gap }) },
              ]}
            />
          </CardContent>
        </Card>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>{t("devicesTitle")}</CardTitle>
        </CardHeader>
        <CardContent>
          <TicketDevices devices={ticket.devicesDetails} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t("notesTitle")}</CardTitle>
        </CardHeader>
        <CardContent>
          <TicketNotes notes={notes} canAdd={canAddNote} timeZone={timeZone} lastResult={actionData?.result} />
        </CardContent>
      </Card>
    </div>
  );
}
