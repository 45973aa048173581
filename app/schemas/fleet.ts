/**
 * The fleet view's filters (decision 0091): a reseller's or the platform's boards across customer
 * companies, health only. URL params are read leniently: a value that does not parse is ignored.
 */
import { z } from "zod";
import { filterKeys, parseUrlFilters, type UrlFilters } from "./url-filters";

/** What a count on the fleet view stands for; each one links to the boards it counts. */
/** `clock`: a clock more than 30 s off, or zone data older than the core's (decision 0092). */
export const FLEET_TROUBLES = ["offline", "lowBattery", "behind", "alarms", "clock"] as const;
export type FleetTrouble = (typeof FLEET_TROUBLES)[number];

export const FLEET_SEARCH_MAX = 100;

export const fleetFilterFields = {
  /** Companies (or boards) with at least one board in this trouble. */
  trouble: z.enum(FLEET_TROUBLES),
  /** A company's name or code, or a board's name or serial. */
  q: z.string().trim().min(1).max(FLEET_SEARCH_MAX),
};
export const FLEET_FILTER_KEYS = filterKeys(fleetFilterFields);
export type FleetFilters = UrlFilters<typeof fleetFilterFields>;
export const parseFleetFilters = (params: URLSearchParams): FleetFilters => parseUrlFilters(fleetFilterFields, params);
