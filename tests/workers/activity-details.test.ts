import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditsNamed, consoleWorker, ORIGIN, pageCookie, schema } from "./helpers";

/** /activityDetails lays out its two sections by the activity type's templates (migration 0034, app/utils/activity-sections.ts). */
const ACME = 3;

async function shownFields(cookie: string, activity: string) {
  const [entry] = await auditsNamed(activity, eq(schema.activityLogs.companyId, ACME));
  const html = await (await consoleWorker.fetch(`${ORIGIN}/activityDetails?id=${entry.id}`, { headers: { Cookie: cookie } })).text();
  return [...html.matchAll(/data-testid="detail-([A-Za-z]+)"/g)].map((m) => m[1]);
}

describe("/activityDetails sections", () => {
  it("follow each type's templates: a refusal's reason, an admin change's author, a group's name", async () => {
    const cookie = await pageCookie("acme");
    // The seed's refusals name no reason code ("Reason not given") and no place or next opening: those stay out.
    expect(await shownFields(cookie, "Access Denied")).toEqual(["date", "trigger", "user", "device", "deviceGroup", "summary", "reason"]);
    expect(await shownFields(cookie, "Device Group Created")).toEqual(["date", "trigger", "triggeredBy", "deviceGroup", "summary"]);
    expect(await shownFields(cookie, "Door Opened")).toEqual(["date", "trigger", "device", "deviceGroup", "summary"]);
  });
});
