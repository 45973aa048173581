/**
 * The week as forms and services name it: a flag per day, Monday first. The spec's bodies carry the
 * days flat (`sch_monday`, `mon`, ...); their endpoint files rename them and nest them with `nestDays`.
 */
import { z } from "zod";
import { checkbox } from "./flag";

export const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const flag = checkbox();
/** A flag per day; an unticked day posts nothing and reads as off. */
export const weekFlags = z.object(Object.fromEntries(WEEKDAYS.map((d) => [d, flag])) as Record<Weekday, typeof flag>);
type WeekFlags = z.output<typeof weekFlags>;

/** A flat body's seven day flags, gathered under `days`. */
export const nestDays = <T extends Record<Weekday, boolean>>({ monday, tuesday, wednesday, thursday, friday, saturday, sunday, ...rest }: T) => ({
  ...rest,
  days: { monday, tuesday, wednesday, thursday, friday, saturday, sunday },
});

/** The week as seven '0'/'1' characters, Monday first (how it is stored). */
export const weekBits = (days: WeekFlags) => WEEKDAYS.map((d) => (days[d] ? "1" : "0")).join("");
