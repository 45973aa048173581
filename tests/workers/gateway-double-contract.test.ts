/**
 * The gateway's tests talk to a hand-written double of this Worker's gateway API
 * (gateway/test/support/worker-contract-double.js). This holds the real endpoint to the double's
 * answers: every event type the double records and every rejection it gives, entry by entry, must get
 * the same answer from `POST /api/gateway/events`, so the double cannot drift from the console unseen.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { RECORDED_TYPES, WorkerContractDouble } from "../../gateway/test/support/worker-contract-double.js";
import { consoleWorker, ORIGIN } from "./helpers";

const DOOR = "1"; // a seeded ACME device
const UNKNOWN_DOOR = "999999";
const AT = Date.UTC(2026, 10, 23, 16, 20);

/** Data each recorded type needs to become an activity row; the others take any object. */
const VALID_DATA: Record<string, object> = {
  battery: { percent: 55 },
  location: { lat: 40.4, lon: -3.7 },
  "command.result": { cmd: "unlock", ok: true },
  "sensor.contact": { input: 1, state: "open" },
  "sensor.measurement": { name: "temperature", value: 21.5 },
  sensor: { name: "sensor 1", state: "closed" },
};

type Case = { name: string; events: unknown[] };

let serial = 0;
/** An event with an id of its own (ids are global: the Worker stores each once). */
const event = (fields: Record<string, unknown> = {}) => ({ id: `contract-${++serial}`, deviceId: DOOR, type: "door.opened", at: AT, data: {}, ...fields });

const CASES: Case[] = [
  ...RECORDED_TYPES.flatMap((type) => [
    { name: `${type} with the data it needs`, events: [event({ type, data: VALID_DATA[type] ?? {} })] },
    { name: `${type} with empty data`, events: [event({ type })] },
  ]),
  { name: "a type nothing records", events: [event({ type: "door.exploded" })] },
  { name: "an unknown device", events: [event({ deviceId: UNKNOWN_DOOR })] },
  { name: "a device id that is not a string", events: [event({ deviceId: 1 })] },
  { name: "a device id that is not a number", events: [event({ deviceId: "door-1" })] },
  { name: "not an object", events: [42] },
  { name: "null", events: [null] },
  { name: "no id", events: [event({ id: undefined })] },
  { name: "an empty id", events: [event({ id: "" })] },
  { name: "an id with a space", events: [event({ id: "a b" })] },
  { name: "an id of 201 characters", events: [event({ id: "x".repeat(201) })] },
  { name: "a type that is not a string", events: [event({ type: 7 })] },
  { name: "at zero", events: [event({ at: 0 })] },
  { name: "at as text", events: [event({ at: "2026-11-23T16:20:00Z" })] },
  { name: "at with a fraction", events: [event({ at: AT + 0.5 })] },
  { name: "data as a list", events: [event({ data: [] })] },
  { name: "data as text", events: [event({ data: "open" })] },
  { name: "data null", events: [event({ data: null })] },
  { name: "no data", events: [event({ data: undefined })] },
  {
    name: "the same id twice in one batch",
    events: (() => {
      const e = event();
      return [e, e];
    })(),
  },
  { name: "board.presence online", events: [event({ type: "board.presence", gatewayId: "gw-a", data: { online: true } })] },
  { name: "board.presence without data.online", events: [event({ type: "board.presence", gatewayId: "gw-a" })] },
  { name: "board.presence of an unknown device", events: [event({ type: "board.presence", deviceId: UNKNOWN_DOOR, data: { online: false } })] },
  { name: "board.presence of an unknown device without data.online", events: [event({ type: "board.presence", deviceId: UNKNOWN_DOOR })] },
  { name: "board.presence without an id", events: [event({ type: "board.presence", id: undefined, data: { online: true } })] },
  { name: "board.presence with a bad at", events: [event({ type: "board.presence", at: -1, data: { online: true } })] },
  { name: "gateway.started", events: [event({ type: "gateway.started", gatewayId: "gw-a" })] },
  { name: "board.clock", events: [event({ type: "board.clock", data: { driftMs: 45_000, tzdata: "2019c", coreTzdata: "2025b" } })] },
  { name: "board.clock without a clock", events: [event({ type: "board.clock", data: { driftMs: null, tzdata: "2025b", coreTzdata: "2025b" } })] },
  { name: "board.clock with a bad version", events: [event({ type: "board.clock", data: { driftMs: 0, tzdata: "latest", coreTzdata: "2025b" } })] },
  { name: "board.clock with no data", events: [event({ type: "board.clock" })] },
  { name: "board.clock of an unknown device", events: [event({ type: "board.clock", deviceId: UNKNOWN_DOOR, data: { driftMs: 0, tzdata: null, coreTzdata: "2025b" } })] },
];

type Answer = { accepted: number; duplicates: number; rejected: { id: string | null; reason: string }[] };

async function workerAnswer(events: unknown[]): Promise<Answer> {
  const res = await consoleWorker.fetch(`${ORIGIN}/api/gateway/events`, {
    method: "POST",
    headers: { Authorization: `Bearer ${env.GATEWAY_SECRET}`, "Content-Type": "application/json" },
    body: JSON.stringify({ v: 1, events }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
}

/** Rejections in a fixed order: the two report envelope and placement problems in separate passes. */
const comparable = ({ accepted, duplicates, rejected }: Answer) => ({
  accepted,
  duplicates,
  rejected: [...rejected].sort((a, b) => `${a.id}\n${a.reason}`.localeCompare(`${b.id}\n${b.reason}`)),
});

describe("the gateway's Worker double", () => {
  it("answers every case as the real Worker does, the first time and when the batch is sent again", async () => {
    const double = new WorkerContractDouble({ secret: String(env.GATEWAY_SECRET) });
    double.change("device", "upsert", DOOR);
    const differences = [];
    for (const { name, events } of CASES) {
      for (const send of ["first", "again"]) {
        const real = comparable(await workerAnswer(events));
        const modelled = comparable(double.ingest(events) as Answer);
        if (JSON.stringify(real) !== JSON.stringify(modelled)) differences.push({ case: `${name} (${send})`, worker: real, double: modelled });
      }
    }
    expect(differences).toEqual([]);
  });

  it("records exactly the types the Worker records", async () => {
    const recorded = await workerAnswer(RECORDED_TYPES.map((type) => event({ type, data: VALID_DATA[type] ?? {} })));
    expect(recorded).toEqual({ accepted: RECORDED_TYPES.length, duplicates: 0, rejected: [] });
  });
});
