import { usePageForm } from "~/components/forms/use-page-form";
import { getInputProps, getTextareaProps } from "@conform-to/react";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { FormAlert } from "~/components/auth/form-parts";
import { Alert, AlertTitle } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { PageHeader } from "~/components/ui/page-header";
import { Textarea } from "~/components/ui/textarea";
import { translateMessage } from "~/i18n/messages";
import { registerFormSchema } from "~/schemas/device-lifecycle";
import { listStockOwners, registerDevices, type RegisterReportRow } from "~/services/device-lifecycle.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs, schema } from "~/utils/db.server";
import { formAction, type FormReply } from "~/utils/form-action.server";

export const meta: MetaFunction = () => [{ title: "Register Devices" }];

/** A registration answers its per-row report; a refused one carries it in the refusal's payload. */
type ActionData = FormReply & { report?: RegisterReportRow[]; registered?: number };

/** /registerDevices (root): boards into the root's own stock or a reseller's, one at a time or from a CSV. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company", "add");
  if (auth.company.type !== "root") throw new Response("Forbidden", { status: 403 });
  const db = getDb(context);
  const [owners, types] = await Promise.all([
    listStockOwners(db, auth),
    db.select({ code: schema.deviceTypes.deviceCode, name: schema.deviceTypes.deviceType }).from(schema.deviceTypes),
  ]);
  return { owners, types, own: auth.company.id };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company", "add");
  return formAction(request, registerFormSchema, async (v, submission) => {
    const input = v.csv?.trim()
      ? { companyId: v.companyId, csv: v.csv }
      : { companyId: v.companyId, devices: [{ serialFront: v.serialFront, serialBack: v.serialBack, deviceType: v.deviceType }] };
    const r = await registerDevices(getDb(context), auth, input, nowMs());
    return { result: submission.reply({ resetForm: true }), report: r.report, registered: r.registered };
  });
}

export default function RegisterDevicesPage() {
  const { owners, types, own } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const report = actionData?.report ?? (actionData?.payload as { report?: RegisterReportRow[] } | undefined)?.report;
  const registered = actionData?.registered ?? 0;
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("lifecycle");
  const csvRef = useRef<HTMLTextAreaElement>(null);
  const { fields, err, formError, formProps } = usePageForm({ id: "register-devices", schema: registerFormSchema, ns: "lifecycle", shouldValidate: "onSubmit" });
  return (
    <div className="grid max-w-4xl gap-5">
      <PageHeader title={t("registerTitle")} description={t("registerDescription")} />
      <Form method="post" {...formProps} className="grid gap-5">
        <FormAlert message={formError} />
        <Field label={t("stockOf")} error={err(fields.companyId)} required>
          <NativeSelect name={fields.companyId.name} defaultValue={String(own)} key={fields.companyId.key}>
            {owners.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name} ({o.code}) - {o.type.toUpperCase()}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <div className="grid gap-5 md:grid-cols-2">
          <Card>
            <CardHeader>
              <CardTitle>{t("oneBoard")}</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-4">
              <Field label={t("col.serialFront")} error={err(fields.serialFront)}>
                <Input {...getInputProps(fields.serialFront, { type: "text" })} key={fields.serialFront.key} maxLength={64} autoComplete="off" />
              </Field>
              <Field label={t("col.serialBack")} error={err(fields.serialBack)}>
                <Input {...getInputProps(fields.serialBack, { type: "text" })} key={fields.serialBack.key} maxLength={64} autoComplete="off" />
              </Field>
              <Field label={t("col.boardType")} error={err(fields.deviceType)}>
                <NativeSelect name={fields.deviceType.name} defaultValue={types[0]?.code} key={fields.deviceType.key}>
                  {types.map((ty) => (
                    <option key={ty.code} value={ty.code}>
                      {ty.name} ({ty.code})
                    </option>
                  ))}
                </NativeSelect>
              </Field>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>{t("fromCsv")}</CardTitle>
              <CardDescription>{t("csvHint")}</CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4">
              <Field label={t("csvFile")}>
                <Input
                  type="file"
                  accept=".csv,text/csv,text/plain"
                  onChange={async (e) => {
                    const file = e.currentTarget.files?.[0];
                    if (file && csvRef.current) csvRef.current.value = await file.text();
                  }}
                />
              </Field>
              <Field label={t("csvText")} error={err(fields.csv)}>
                <Textarea
                  {...getTextareaProps(fields.csv)}
                  key={fields.csv.key}
                  ref={csvRef}
                  rows={6}
                  className="font-mono"
                  placeholder={"serial_front,serial_back,device_type\nF-0001,B-0001,AB-100"}
                />
              </Field>
            </CardContent>
          </Card>
        </div>
        <div>
          <Button type="submit" disabled={busy}>
            {t("register")}
          </Button>
        </div>
      </Form>
      {report && (
        <section aria-labelledby="report-heading" className="grid gap-3">
          <h2 id="report-heading" className="text-lg font-semibold">
            {t("report")}
          </h2>
          <Alert variant={registered ? "info" : "destructive"} role="status">
            <AlertTitle>{t("reportSummary", { registered, rejected: report.length - registered })}</AlertTitle>
          </Alert>
          <div className="overflow-x-auto rounded-lg border bg-card">
            <table className="w-full text-sm" data-testid="register-report">
              <caption className="sr-only">{t("report")}</caption>
              <thead className="bg-muted/60">
                <tr className="border-b text-left">
                  <th className="p-2 font-medium">{t("col.row")}</th>
                  <th className="p-2 font-medium">{t("col.serialFront")}</th>
                  <th className="p-2 font-medium">{t("col.serialBack")}</th>
                  <th className="p-2 font-medium">{t("col.boardType")}</th>
                  <th className="p-2 font-medium">{t("col.result")}</th>
                </tr>
              </thead>
              <tbody>
                {report.map((r) => (
                  <tr key={r.row} className="border-b last:border-0">
                    <td className="p-2 tabular-nums">{r.row}</td>
                    <td className="p-2 font-mono">{r.serialFront}</td>
                    <td className="p-2 font-mono">{r.serialBack}</td>
                    <td className="p-2">{r.deviceType}</td>
                    <td className={r.registered ? "p-2 text-primary" : "p-2 text-destructive"}>{r.registered ? t("registered") : translateMessage(t, r.message, "lifecycle")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </div>
  );
}
