/**
 * The alert page's form fields, turned into the API's alert body and checked by the same schema
 * (`addAlertSchema` / `modifyAlertSchema`). The form sends pickers as repeated fields, recipients
 * as picked user ids plus typed addresses, and the chosen activity's conditions beside its name.
 */
import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";
import { readsPostedStrings } from "~/utils/form-options";
import { addAlertSchema, alertTestEmailSchema, modifyAlertSchema } from "./alerts";

/** What the alert pages' action answers: Conform's reply, or the test mail's confirmation. */
export type AlertActionData = { result?: SubmissionResult<string[]>; sent?: string } | undefined;

/** Repeated fields come as an array, a single one as a string; the test-mail dialog joins ids with commas. */
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : v == null || v === "" ? [] : String(v).split(",").filter(Boolean));

export function alertFormToWire(v: unknown) {
  if (!v || typeof v !== "object") return v;
  const o = v as Record<string, unknown>;
  const typed = typeof o.recipient_emails === "string" ? o.recipient_emails.split(/[,;\s]+/).filter(Boolean) : [];
  return {
    ...o,
    activity: o.activity
      ? { name: o.activity, ...(typeof o.activity_conditions === "string" && o.activity_conditions ? { alert_conditions: o.activity_conditions } : {}) }
      : undefined,
    created_by_users: list(o.created_by_users),
    target_users: list(o.target_users),
    devices: list(o.devices),
    emails: [...list(o.recipient_users).map((id) => ({ id, type: "User" })), ...typed],
  };
}

export const alertAddFormSchema = readsPostedStrings(z.preprocess(alertFormToWire, addAlertSchema));
export const alertModifyFormSchema = readsPostedStrings(z.preprocess(alertFormToWire, modifyAlertSchema));
export const alertTestFormSchema = readsPostedStrings(z.preprocess(alertFormToWire, alertTestEmailSchema));
