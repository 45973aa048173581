import { describe, expect, it } from "vitest";
import { activitySections, DETAIL_FIELDS, FIRST_FIELDS } from "./activity-sections";

describe("activitySections", () => {
  it("shows the named fields in the template's order, once each, skipping names it does not know", () => {
    expect(activitySections({ firstSectionInfo: "device, date,user,date,colour", detailsSectionInfo: "reason,summary" })).toEqual({
      first: ["device", "date", "user"],
      details: ["reason", "summary"],
    });
  });
  it("shows every field of a section whose template is empty", () => {
    expect(activitySections({ firstSectionInfo: "", detailsSectionInfo: " " })).toEqual({ first: [...FIRST_FIELDS], details: [...DETAIL_FIELDS] });
  });
});
