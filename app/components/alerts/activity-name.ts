import type { TFunction } from "i18next";

/** A catalogue activity name in the reader's language (the activity log's translations); the stored English name stays the value sent. */
export const activityName = (t: TFunction, name: string): string => t(`name.${name}`, { ns: "activity", defaultValue: name });
