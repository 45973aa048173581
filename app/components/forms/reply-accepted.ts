import type { SubmissionResult } from "@conform-to/react";

/**
 * Whether an action's Conform reply is an acceptance. A form that stays answers with
 * `submission.reply({ resetForm: true })`, which carries no `status` at all (only
 * `initialValue: null`), so `status === "success"` would read an accepted change as a refusal.
 * A refusal always carries `status: "error"` and its errors.
 */
export const replyAccepted = (result: SubmissionResult<string[]> | undefined): boolean => !!result && result.status !== "error" && !result.error;
