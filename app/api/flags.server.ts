import { z } from "zod";

/** The spec's flags on the wire: '1' or '0'. Typed as the two literals so a payload fits its documented schema. */
export const bit = (v: boolean | number) => (v ? ("1" as const) : ("0" as const));

/** A flag's schema in the OpenAPI document. */
export const bitShape = z.enum(["1", "0"]);
