import { Form, useNavigate } from "@remix-run/react";
import type { TFunction } from "i18next";
import { useState, type FormEvent } from "react";
import { toast } from "~/components/toast/toast-store";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { translateMessage } from "~/i18n/messages";
import { addOtaSchema } from "~/schemas/firmware";

export const UPLOAD_HEADER = "X-Ota-Upload";
type Errors = Record<string, string[] | undefined>;

/**
 * The /addota form. With JavaScript it checks the fields with the shared schema, then posts the
 * same multipart body through XMLHttpRequest so the bar can show upload progress; without it, it
 * is a plain form post.
 */
export function UploadForm({ t, deviceTypes, serverErrors }: { t: TFunction; deviceTypes: { id: number; code: string; name: string }[]; serverErrors?: Errors }) {
  const navigate = useNavigate();
  const [errors, setErrors] = useState<Errors>(serverErrors ?? {});
  const [percent, setPercent] = useState<number | null>(null);
  const busy = percent !== null;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const check = addOtaSchema.safeParse(Object.fromEntries(data.entries()));
    if (!check.success) {
      setErrors(check.error.flatten().fieldErrors);
      return;
    }
    setErrors({});
    setPercent(0);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", form.action);
    xhr.setRequestHeader(UPLOAD_HEADER, "1");
    xhr.upload.onprogress = (e) => e.lengthComputable && setPercent(Math.round((e.loaded / e.total) * 100));
    xhr.onload = () => {
      setPercent(null);
      let body: { errors?: Errors; message?: string } = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not our JSON: reported as a failed upload below */
      }
      // 200 only when the release was stored, whether the answer came back as JSON or as the page.
      if (xhr.status === 200) {
        toast({ type: "success", message: t("uploaded") });
        navigate("/ota");
      } else if (body.errors) setErrors(body.errors);
      else toast({ type: "error", message: body.message ? translateMessage(t, body.message, "ota") : t("uploadFailed") });
    };
    xhr.onerror = () => {
      setPercent(null);
      toast({ type: "error", message: t("uploadFailed") });
    };
    xhr.send(data);
  }

  const err = (k: string) => errors[k]?.map((m) => translateMessage(t, m, "ota"));
  return (
    <Form method="post" encType="multipart/form-data" onSubmit={onSubmit} className="grid max-w-xl gap-4" noValidate>
      <Field label={t("version")} error={err("version")} required>
        <Input id="ota-version" name="version" inputMode="decimal" autoComplete="off" disabled={busy} />
      </Field>
      <Field label={t("file")} hint={t("fileHint")} error={err("zip_file")} required>
        <Input id="ota-file" name="zip_file" type="file" accept=".zip,application/zip" disabled={busy} />
      </Field>
      <Field label={t("deviceType")} error={err("device_type_id")}>
        <NativeSelect id="ota-device-type" name="device_type_id" defaultValue={deviceTypes[0]?.id ?? ""} disabled={busy}>
          <option value="">{t("anyDeviceType")}</option>
          {deviceTypes.map((d) => (
            <option key={d.id} value={d.id}>
              {d.code} · {d.name}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field label={t("description")} error={err("version_description")}>
        <Textarea id="ota-description" name="version_description" rows={3} disabled={busy} />
      </Field>
      {busy && (
        <div className="grid gap-1" role="status">
          <progress className="h-2 w-full accent-primary" max={100} value={percent} aria-label={t("uploading", { percent })} />
          <span className="text-xs text-muted-foreground">{percent < 100 ? t("uploading", { percent }) : t("processing")}</span>
        </div>
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
