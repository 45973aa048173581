import { data, type AppLoadContext } from "@remix-run/cloudflare";
import { addDevicesToGroupSchema } from "~/schemas/bulk";
import { createDeviceGroupSchema, DEACTIVATED, modifyDeviceGroupSchema } from "~/schemas/device-groups";
import { addDevicesToGroup, createDeviceGroup, modifyDeviceGroup } from "~/services/device-groups.server";
import type { Auth } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction } from "~/utils/form-action.server";
import { redirectWithMessage } from "~/utils/toast.server";

/**
 * The add and modify actions: the post parsed with the shared schema (Conform), saved through the
 * service, then a redirect with a translated toast; failures come back as Conform's reply.
 */
export async function saveGroupForm(request: Request, formData: FormData, context: AppLoadContext, auth: Auth, mode: "add" | "modify") {
  const db = getDb(context);
  const done = (to: string, message: string) => redirectWithMessage({ request, context }, { to, ns: "groups", message });
  if (mode === "add") {
    return formAction(
      request,
      createDeviceGroupSchema,
      async (value) => {
        await createDeviceGroup(db, auth, value, nowMs(), context.core);
        return done(formData.get("intent") === "another" ? "/addDeviceGroup" : "/deviceGroups", "toast.created");
      },
      { formData },
    );
  }
  return formAction(
    request,
    modifyDeviceGroupSchema,
    async (value) => {
      const r = await modifyDeviceGroup(db, auth, value, nowMs(), context.core);
      return done("/deviceGroups", r.status === DEACTIVATED ? "toast.deactivated" : "toast.modified");
    },
    { formData },
  );
}

/**
 * The group page's "Add devices" post (intent `addDevices`): the picker's selection added through the
 * bulk service; the reply carries each device's result for the page to show.
 */
export async function addDevicesForm(request: Request, formData: FormData, context: AppLoadContext, auth: Auth) {
  return formAction(
    request,
    addDevicesToGroupSchema,
    async (value, submission) => {
      const rows = await addDevicesToGroup(getDb(context), auth, value, nowMs());
      return data({ result: submission.reply({ resetForm: true }), added: { rows } });
    },
    { formData },
  );
}
