/** A valid `createDeviceGroup` body: `name` on the given devices, weekdays 08:00–18:00 in `timeZoneId`; `over` replaces any field.
 * Shared by the Workers and Playwright suites. */
export function deviceGroupBody(timeZoneId: number, name: string, deviceIds: number[], over: Record<string, unknown> = {}) {
  return {
    display_name: name,
    full_name: name,
    description: "",
    sch_monday: "1",
    sch_tuesday: "1",
    sch_wednesday: "1",
    sch_thursday: "1",
    sch_friday: "1",
    sch_saturday: "0",
    sch_sunday: "0",
    start_at: "08:00",
    end_at: "18:00",
    is_all_day: "0",
    time_zone_id: timeZoneId,
    available_devices: deviceIds,
    ...over,
  };
}
