import type { SubmissionResult } from "@conform-to/react";
import { Form, useNavigate } from "@remix-run/react";
import { useState } from "react";
import { usePageForm } from "~/components/forms/use-page-form";
import { toast } from "~/components/toast/toast-store";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { addOtaSchema } from "~/schemas/firmware";

/** Where the page's XMLHttpRequest posts: the /addota action answering in JSON. */
const UPLOAD_URL = "/resources/ota/upload";

type UploadAnswer = { uploaded?: boolean; result?: SubmissionResult<string[]> };

/**
 * The /addota form (Conform over `addOtaSchema`, decision 0021). With JavaScript, once the browser
 * checks pass it posts the same multipart body through XMLHttpRequest so the bar can show upload
 * progress, and reads the JSON answer: a refusal is Conform's reply, so a server error lands on its
 * field like any page form's. Without JavaScript it is a plain post to the page's action.
 */
export function UploadForm({ deviceTypes }: { deviceTypes: { id: number; code: string; name: string }[] }) {
  const navigate = useNavigate();
  const [percent, setPercent] = useState<number | null>(null);
  // undefined: the page action's reply (a post without JavaScript); then the upload's.
  const [uploadResult, setUploadResult] = useState<SubmissionResult<string[]> | undefined>(undefined);
  const busy = percent !== null;

  const { fields, err, formError, formProps, t } = usePageForm({
    id: "ota-upload",
    schema: addOtaSchema,
    ns: "ota",
    lastResult: uploadResult,
    onSubmit(event, { formData }) {
      event.preventDefault();
      setPercent(0);
      const xhr = new XMLHttpRequest();
      xhr.open("POST", UPLOAD_URL);
      xhr.responseType = "json";
      xhr.upload.onprogress = (e) => e.lengthComputable && setPercent(Math.round((e.loaded / e.total) * 100));
      xhr.onload = () => {
        setPercent(null);
        const answer = (xhr.response ?? {}) as UploadAnswer;
        if (xhr.status === 200 && answer.uploaded) {
          toast({ type: "success", message: t("uploaded") });
          navigate("/ota");
        } else if (answer.result) setUploadResult(answer.result);
        // Not our JSON (a sign-in page after the session ended, a proxy's error page).
        else toast({ type: "error", message: t("uploadFailed") });
      };
      xhr.onerror = () => {
        setPercent(null);
        toast({ type: "error", message: t("uploadFailed") });
      };
      xhr.send(formData);
    },
  });

  return (
    <Form method="post" encType="multipart/form-data" {...formProps} className="grid max-w-xl gap-4">
      <Field label={t("version")} error={err(fields.version)} required>
        <Input id={fields.version.id} name={fields.version.name} inputMode="decimal" autoComplete="off" disabled={busy} />
      </Field>
      <Field label={t("file")} hint={t("fileHint")} error={err(fields.zip_file)} required>
        <Input id={fields.zip_file.id} name={fields.zip_file.name} type="file" accept=".zip,application/zip" disabled={busy} />
      </Field>
      <Field label={t("deviceType")} error={err(fields.device_type_id)}>
        <NativeSelect id={fields.device_type_id.id} name={fields.device_type_id.name} defaultValue={deviceTypes[0]?.id ?? ""} disabled={busy}>
          <option value="">{t("anyDeviceType")}</option>
          {deviceTypes.map((d) => (
            <option key={d.id} value={d.id}>
              {d.code} · {d.name}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field label={t("description")} error={err(fields.version_description)}>
        <Textarea id={fields.version_description.id} name={fields.version_description.name} rows={3} disabled={busy} />
      </Field>
      {busy && (
        <div className="grid gap-1" role="status">
          <progress className="h-2 w-full accent-primary" max={100} value={percent} aria-label={t("uploading", { percent })} />
          <span className="text-xs text-muted-foreground">{percent < 100 ? t("uploading", { percent }) : t("processing")}</span>
        </div>
      )}
      {formError && (
        <p role="alert" className="text-sm text-destructive">
          {formError}
        </p>
      )}
      <div className="flex gap-2">
        <Button type="submit" loading={busy}>
          {t("upload")}
        </Button>
        <Button type="button" variant="outline" onClick={() => navigate("/ota")} disabled={busy}>
          {t("back")}
        </Button>
      </div>
    </Form>
  );
}
