import { data, type AppLoadContext } from "@remix-run/cloudflare";
import { getFixedT, getLanguage } from "~/i18n/i18next.server";
import { addDevicesToGroupSchema } from "~/schemas/bulk";
import { createDeviceGroupSchema, modifyDeviceGroupSchema } from "~/schemas/device-groups";
import { addDevicesToGroup, createDeviceGroup, modifyDeviceGroup } from "~/services/device-groups.server";
import type { Auth } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction } from "~/utils/form-action.server";
import { redirectWithToast } from "~/utils/toast.server";
import { AS_POSTED } from "~/utils/form-options";

/**
 * The add and modify actions: the post parsed with the shared schema (Conform), saved through the
 * service, then a redirect with a translated toast; failures come back as Conform's reply.
 */
export async function saveGroupForm(request: Request, context: AppLoadContext, auth: Auth, mode: "add" | "modify") {
  const form = await request.formData();
  const t = await getFixedT(await getLanguage(request), "groups");
  const env = context.cloudflare.env;
  const db = getDb(context);
  if (mode === "add") {
    return formAction(
      form,
      createDeviceGroupSchema,
      async (value) => {
        await createDeviceGroup(db, auth, value, nowMs(), context.core);
        const to = form.get("intent") === "another" ? "/addDeviceGroup" : "/deviceGroups";
        return redirectWithToast(to, { type: "success", message: t("toast.created") }, env);
      },
      AS_POSTED,
    );
  }
  return formAction(
    form,
    modifyDeviceGroupSchema,
    async (value) => {
      const r = await modifyDeviceGroup(db, auth, value, nowMs(), context.core);
      return redirectWithToast("/deviceGroups", { type: "success", message: t(r.status === 3 ? "toast.deactivated" : "toast.modified") }, env);
    },
    AS_POSTED,
  );
}

/**
 * The group page's "Add devices" post (intent `addDevices`): the picker's selection added through the
 * bulk service; the reply carries each device's result for the page to show.
 */
export async function addDevicesForm(form: FormData, context: AppLoadContext, auth: Auth) {
  return formAction(form, addDevicesToGroupSchema, async (value, submission) => {
    const rows = await addDevicesToGroup(getDb(context), auth, value, nowMs());
    return data({ result: submission.reply({ resetForm: true }), added: { rows } });
  });
}
