import type { AppLoadContext } from "@remix-run/cloudflare";
import { getFixedT, getLanguage } from "~/i18n/i18next.server";
import { translateMessage } from "~/i18n/messages";
import { createDeviceGroupSchema, modifyDeviceGroupSchema } from "~/schemas/device-groups";
import { createDeviceGroup, modifyDeviceGroup } from "~/services/device-groups.server";
import type { Auth } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { formFailure, type FormFailure } from "~/utils/form-result";
import { parseInput } from "~/utils/parse-input.server";
import { redirectWithToast } from "~/utils/toast.server";
import { groupFormToWire } from "./form-data";

export type GroupActionData = FormFailure;

/**
 * The add and modify actions: validate with the shared schema, save through the service, then
 * redirect with a translated toast; failures come back as field errors (status 400/404/403).
 */
export async function saveGroupForm(request: Request, context: AppLoadContext, auth: Auth, mode: "add" | "modify") {
  const form = await request.formData();
  const wire = groupFormToWire(form);
  const t = await getFixedT(await getLanguage(request), "groups");
  const env = context.cloudflare.env;
  const db = getDb(context);
  try {
    if (mode === "add") {
      await createDeviceGroup(db, auth, parseInput(createDeviceGroupSchema, wire), nowMs(), context.core);
      const to = form.get("intent") === "another" ? "/addDeviceGroup" : "/deviceGroups";
      return redirectWithToast(to, { type: "success", message: t("toast.created") }, env);
    }
    const r = await modifyDeviceGroup(db, auth, parseInput(modifyDeviceGroupSchema, wire), nowMs(), context.core);
    return redirectWithToast("/deviceGroups", { type: "success", message: t(r.status === 3 ? "toast.deactivated" : "toast.modified") }, env);
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    const failure = formFailure(err, (m) => translateMessage(t, m, "groups"));
    if (!err.details.fieldErrors) failure.fieldErrors = { _: [failure.message] };
    return Response.json(failure satisfies GroupActionData, { status: err.status });
  }
}
