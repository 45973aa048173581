import { getTextareaProps, type SubmissionResult } from "@conform-to/react";
import { usePageForm } from "~/components/forms/use-page-form";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { activityLabel, denialReason, markOf, summaryText } from "~/components/activity/activity-text";
import { EventMark } from "~/components/activity/event-mark";
import { DetailList, type DetailItem } from "~/components/devices/detail-list";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import { Field } from "~/components/ui/field";
import { PageHeader } from "~/components/ui/page-header";
import { Textarea } from "~/components/ui/textarea";
import { activityNoteSchema } from "~/schemas/activity";
import { addNote, getActivity, zoneFor } from "~/services/activity.server";
import { requireActivityReader, requireModule } from "~/utils/auth-guards.server";
import { companyLogDb } from "~/utils/company-log.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction } from "~/utils/form-action.server";
import { redirectWithMessage } from "~/utils/toast.server";
import { ServiceError } from "~/utils/errors.server";
import { formatZonedTime } from "~/utils/format";
import { activitySections, type DetailField, type FirstField } from "~/utils/activity-sections";
import { getLanguage } from "~/i18n/i18next.server";
import { can } from "~/utils/permissions";
import { loadRecord } from "~/utils/record-from-url.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.row.activityName ?? "Activity" }];

/** Without an id, or with one that is not the company's, back to the list (docs/ARCHITECTURE.md §7.1). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireActivityReader(request, context);
  return loadRecord(request, { list: "/activity" }, async (id) => {
    const { row, notes } = await getActivity(companyLogDb(context.cloudflare.env, auth.company.id), auth, id);
    const tz = zoneFor(auth, context.core, undefined);
    const language = await getLanguage(request);
    const nextOpen = typeof row.details.nextOpen === "string" ? Date.parse(row.details.nextOpen) : NaN;
    return {
      row: { ...row, when: formatZonedTime(row.at, tz, language), nextOpen: Number.isFinite(nextOpen) ? formatZonedTime(nextOpen, tz, language) : null },
      notes: notes.map((n) => ({ ...n, when: formatZonedTime(n.createdAt, tz, language) })),
      canAddNote: can(auth.permissions, "activity", "add"),
      sections: activitySections(row.activityType),
    };
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "activity", "add");
  try {
    return await formAction(request, activityNoteSchema, async (value) => {
      const r = await addNote(getDb(context), companyLogDb(context.cloudflare.env, auth.company.id), auth, value, nowMs());
      return redirectWithMessage({ request, context }, { to: `/activityDetails?id=${value.id}`, ns: "activity", message: r.message });
    });
  } catch (e) {
    // A record gone since the page loaded: back to the log.
    if (e instanceof ServiceError && e.status === 404) throw redirect("/activity");
    throw e;
  }
}

export default function ActivityDetailsPage() {
  const { row, notes, canAddNote, sections } = useLoaderData<typeof loader>();
  const { t } = useTranslation("activity");
  const none = (v: string | null | undefined) => v || "-";
  const firstValue: Record<FirstField, string> = {
    date: row.when,
    trigger: t(`op.${row.operationType}`),
    triggeredBy: none(row.createdByUser?.displayName),
    user: none(row.targetUser?.displayName),
    device: none(row.targetDevice?.fullName || row.targetDevice?.displayName),
    deviceGroup: none(row.targetDeviceGroup?.fullName),
  };
  const reason = denialReason(t, row);
  const mark = markOf(row);
  const label = activityLabel(t, row);
  // The stored details are the board's raw fields: only what a reader needs is shown, in words; a field the
  // template names but this entry lacks (no reason on a granted access) is left out.
  const detailValue: Record<DetailField, string | null> = {
    summary: none(summaryText(t, row)),
    reason,
    nextOpen: reason ? row.nextOpen : null,
    gps: row.gpsLocation || null,
  };
  const first: DetailItem[] = sections.first.map((key) => ({ key, label: t(FIRST_LABEL[key]), value: firstValue[key] }));
  const details: DetailItem[] = sections.details.flatMap((key) => {
    const value = detailValue[key];
    return value ? [{ key, label: t(DETAIL_LABEL[key]), value }] : [];
  });
  return (
    <div className="grid gap-5">
      <PageHeader
        title={label}
        description={mark ? <EventMark mark={mark} label={t(`mark.${mark}`)} /> : undefined}
        back={{ to: "/activity", label: t("back") }}
        className="pb-0"
      />
      <Card>
        <CardHeader>
          <CardTitle>{t("firstSection")}</CardTitle>
        </CardHeader>
        <CardContent>
          <DetailList items={first} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t("detailsSection")}</CardTitle>
        </CardHeader>
        <CardContent>
          <DetailList items={details} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t("notes")}</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4">
          {notes.length === 0 ? (
            <EmptyState title={t("noNotes")} className="py-4" />
          ) : (
            <ul className="grid gap-3" data-testid="notes">
              {notes.map((n) => (
                <li key={n.id} className="grid gap-0.5 border-b pb-3 last:border-b-0 last:pb-0">
                  <p className="text-xs text-muted-foreground">
                    <span className="tabular-nums">{n.when}</span> · <span>{n.author}</span>
                  </p>
                  <p className="text-sm whitespace-pre-wrap break-words">{n.note}</p>
                </li>
              ))}
            </ul>
          )}
          {canAddNote && <NoteForm key={notes.length} id={row.id} />}
        </CardContent>
      </Card>
    </div>
  );
}

const FIRST_LABEL: Record<FirstField, string> = {
  date: "col.date",
  trigger: "col.trigger",
  triggeredBy: "col.triggeredBy",
  user: "col.user",
  device: "col.device",
  deviceGroup: "col.deviceGroup",
};
const DETAIL_LABEL: Record<DetailField, string> = { summary: "col.summary", reason: "reason", nextOpen: "nextOpen", gps: "gps" };

/** The add-note box; the same schema checks it here and on the server. */
function NoteForm({ id }: { id: number }) {
  const { t } = useTranslation("activity");
  const actionData = useActionData<typeof action>() as { result?: SubmissionResult<string[]> } | undefined;
  const busy = useNavigation().state === "submitting";
  const { fields, err, formError, formProps } = usePageForm({
    id: "add-note",
    schema: activityNoteSchema,
    ns: "activity",
    lastResult: busy ? null : (actionData?.result ?? null),
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" {...formProps} className="grid gap-3">
      <input type="hidden" name="id" value={id} />
      <Field label={t("addNote")} error={err(fields.note) ?? formError} required>
        <Textarea {...getTextareaProps(fields.note)} rows={3} maxLength={2000} />
      </Field>
      <div>
        <Button type="submit" loading={busy}>
          {t("saveNote")}
        </Button>
      </div>
    </Form>
  );
}
