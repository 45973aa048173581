import { WEEKDAY_FIELDS } from "~/schemas/device-groups";

/**
 * The posted group form as the wire object the schema reads: checkboxes post "1" only when
 * checked, the group's devices post one `available_devices` field each, and the deactivate
 * switch becomes the spec's status (3 deactivated; absent keeps or restores an active status).
 */
export function groupFormToWire(form: FormData): Record<string, unknown> {
  const text = (name: string) => String(form.get(name) ?? "");
  const wire: Record<string, unknown> = {
    display_name: text("display_name"),
    full_name: text("full_name"),
    description: text("description"),
    start_at: text("start_at"),
    end_at: text("end_at"),
    is_all_day: form.has("is_all_day"),
    time_zone_id: text("time_zone_id"),
    available_devices: form.getAll("available_devices").map(String),
    status: form.has("deactivate") ? 3 : "",
  };
  for (const day of WEEKDAY_FIELDS) wire[day] = form.has(day);
  if (form.has("id")) wire.id = text("id");
  return wire;
}
