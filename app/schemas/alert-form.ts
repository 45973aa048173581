/**
 * The alert page's form: the alert's own fields (`addAlertSchema` / `modifyAlertSchema`), except that
 * recipients come from two widgets, the picked users (`recipientUsers`, repeated) and the typed
 * addresses (`recipientEmails`, one text), gathered here into the alert's one recipient list. A picked
 * user's channel comes as `recipientChannels` entries `<user id>:<channel>` (decision 0073).
 */
import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";
import { readsPostedStrings } from "~/utils/form-options";
import { addAlertSchema, alertTestFields, modifyAlertSchema } from "./alerts";

/** What the alert pages' action answers: Conform's reply, or the test mail's confirmation. */
export type AlertActionData = { result?: SubmissionResult<string[]>; sent?: string } | undefined;

/** Repeated fields come as an array, a single one as a string; the test-mail dialog joins ids with commas. */
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : v == null || v === "" ? [] : String(v).split(",").filter(Boolean));

function gatherRecipients(v: unknown) {
  if (!v || typeof v !== "object") return v;
  const { recipientUsers, recipientEmails, recipientChannels, ...rest } = v as Record<string, unknown>;
  const typed = typeof recipientEmails === "string" ? recipientEmails.split(/[,;\s]+/).filter(Boolean) : [];
  const channelOf = new Map(list(recipientChannels).map((x) => [x.slice(0, x.indexOf(":")), x.slice(x.indexOf(":") + 1)]));
  return { ...rest, recipients: [...list(recipientUsers).map((id) => ({ id, type: "User", channel: channelOf.get(id) })), ...typed] };
}

export const alertAddFormSchema = readsPostedStrings(z.preprocess(gatherRecipients, addAlertSchema));
export const alertModifyFormSchema = readsPostedStrings(z.preprocess(gatherRecipients, modifyAlertSchema));
export const alertTestFormSchema = readsPostedStrings(z.preprocess(gatherRecipients, alertTestFields));
