/**
 * Every message a zod schema can give, found by walking the schema and parsing each part with values
 * built to fail it: its own checks' limits, wrong types, empty, over-long and forbidden text. Used by
 * the unit test that holds every form's messages to a Spanish text; a refinement of a whole object
 * (superRefine) is only reached through the message constants it uses.
 */
import { z, type ZodTypeAny } from "zod";

const LONG = "x".repeat(10_001);
/** Values that fail most refinements (empty, blank, junk, bidi override, out of range, wrong shapes). */
const PROBES: unknown[] = [undefined, null, "", " ", "x", "zz-not-an-option", "\u202e", LONG, -1, 0, 1.5, 1e12, Number.NaN, "2026-13-45", "25:99", [], [""], {}, true];

function limitProbes(def: { checks?: { kind: string; value?: unknown }[] }): unknown[] {
  const out: unknown[] = [];
  for (const c of def.checks ?? []) {
    if (typeof c.value !== "number" || c.value > 100_000) continue;
    if (c.kind === "min" || c.kind === "length") out.push("x".repeat(Math.max(0, c.value - 1)), c.value - 1, Array(Math.max(0, c.value - 1)).fill(""));
    if (c.kind === "max" || c.kind === "length") out.push("x".repeat(c.value + 1), c.value + 1, Array(c.value + 1).fill(""));
  }
  return out;
}

function children(s: ZodTypeAny): ZodTypeAny[] {
  const d = s._def as Record<string, unknown> & { typeName: string };
  switch (d.typeName) {
    case "ZodObject":
      return Object.values((s as z.AnyZodObject).shape);
    case "ZodArray":
      return [d.type as ZodTypeAny];
    case "ZodEffects":
      return [d.schema as ZodTypeAny];
    case "ZodOptional":
    case "ZodNullable":
    case "ZodDefault":
    case "ZodCatch":
    case "ZodReadonly":
      return [d.innerType as ZodTypeAny];
    case "ZodBranded":
      return [d.type as ZodTypeAny];
    case "ZodPipeline":
      return [d.in as ZodTypeAny, d.out as ZodTypeAny];
    case "ZodUnion":
    case "ZodDiscriminatedUnion":
      return [...(d.options as Iterable<ZodTypeAny>)];
    case "ZodIntersection":
      return [d.left as ZodTypeAny, d.right as ZodTypeAny];
    case "ZodTuple":
      return d.items as ZodTypeAny[];
    case "ZodRecord":
      return [d.valueType as ZodTypeAny];
    case "ZodLazy":
      return [(d.getter as () => ZodTypeAny)()];
    default:
      return [];
  }
}

/** The messages `schema` and every part of it give for the probe values. */
export function zodMessages(schema: ZodTypeAny): Set<string> {
  const found = new Set<string>();
  const seen = new Set<ZodTypeAny>();
  const visit = (s: ZodTypeAny) => {
    if (seen.has(s)) return;
    seen.add(s);
    for (const v of [...PROBES, ...limitProbes(s._def)]) {
      let r: z.SafeParseReturnType<unknown, unknown>;
      try {
        r = s.safeParse(v);
      } catch {
        continue; // a transform that assumes an earlier check held
      }
      if (!r.success) for (const i of r.error.issues) found.add(i.message);
    }
    children(s).forEach(visit);
  };
  visit(schema);
  return found;
}

/** Zod schemas among a module's exports. */
export const schemasOf = (mod: Record<string, unknown>): ZodTypeAny[] => Object.values(mod).filter((v): v is ZodTypeAny => v instanceof z.ZodType);

/** String values of a module's exported message constants (`<DOMAIN>_MSG`). */
export function constantMessages(mod: Record<string, unknown>): string[] {
  return Object.entries(mod)
    .filter(([k, v]) => /(^|_)MSG$/.test(k) && v && typeof v === "object")
    .flatMap(([, v]) => Object.values(v as Record<string, unknown>).filter((x): x is string => typeof x === "string"));
}
