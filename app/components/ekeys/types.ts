import type { AssignedEkey } from "~/services/ekeys.server";
import type { Days } from "../../../core-wasm/pkg/index.js";

/** Loader data of the e-key panel, as it arrives in the browser. */
export type AssignedKey = Omit<AssignedEkey, "schedule_days"> & { schedule_days: Days };
export type KeyOption = { id: number; full_name: string };
export type GroupOption = KeyOption & {
  sch_monday: boolean;
  sch_tuesday: boolean;
  sch_wednesday: boolean;
  sch_thursday: boolean;
  sch_friday: boolean;
  sch_saturday: boolean;
  sch_sunday: boolean;
  start_at: string | null;
  end_at: string | null;
  is_all_day: boolean;
  time_zone_id: number | null;
  time_zone: string | null;
};
export type ZoneOption = { id: number; name: string; label: string };

export type PanelData = {
  userId: number | null;
  keys: AssignedKey[];
  devices: KeyOption[];
  groups: GroupOption[];
  zones: ZoneOption[];
  defaultZoneId: number | null;
  today: string;
  can: { add: boolean; modify: boolean; delete: boolean };
};
