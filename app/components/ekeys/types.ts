import type { StoredHolidayDate } from "~/schemas/holidays";
import type { AssignedEkey, DeviceKeyOption, GroupKeyOption } from "~/services/ekeys.server";

/** Loader data of the e-key panel: the e-key service's rows. */
export type AssignedKey = AssignedEkey;
export type KeyOption = DeviceKeyOption;
export type GroupOption = GroupKeyOption;
export type ZoneOption = { id: number; name: string; label: string };
export type CalendarOption = { id: number; name: string; dates: StoredHolidayDate[] };

export type PanelData = {
  userId: number | null;
  keys: AssignedKey[];
  devices: KeyOption[];
  groups: GroupOption[];
  zones: ZoneOption[];
  /** The company's holiday calendars a key may follow (decision 0077). */
  calendars: CalendarOption[];
  defaultZoneId: number | null;
  today: string;
  can: { add: boolean; modify: boolean; delete: boolean };
};
