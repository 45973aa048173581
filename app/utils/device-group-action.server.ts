import type { AppLoadContext } from "@remix-run/cloudflare";
import { getFixedT, getLanguage } from "~/i18n/i18next.server";
import { createDeviceGroupSchema, modifyDeviceGroupSchema } from "~/schemas/device-groups";
import { createDeviceGroup, modifyDeviceGroup } from "~/services/device-groups.server";
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
