import { z } from "zod";
import { commandIdSchema, COMMAND_MSG, unlockSchema, unlockTtlFor } from "~/schemas/device-commands";
import { getCommand, requestUnlock, wireCommandId, type DeviceCommand } from "~/services/device-commands.server";
import { endpoint } from "../define.server";

const tag = "Devices";

const commandShape = z.object({
  id: z.number(),
  command_id: z.string().describe("the id the command travels under to the board (`data.cmd` of its command.result)"),
  device_id: z.number(),
  command: z.enum(["unlock"]),
  status: z.enum(["pending", "sent", "succeeded", "failed"]).describe("pending: waiting for the board's gateway; sent: delivered, waiting for the board's answer"),
  error: z.string().nullable().describe("why it failed: the board's reason, or 'expired' when no board answered in time"),
  created_at: z.number(),
  expires_at: z.number(),
  finished_at: z.number().nullable(),
});

const wire = (r: DeviceCommand) => ({
  id: r.id,
  command_id: wireCommandId(r.id),
  device_id: r.deviceId,
  command: r.command,
  status: r.status,
  error: r.error,
  created_at: r.createdAt,
  expires_at: r.expiresAt,
  finished_at: r.finishedAt,
});

export const deviceCommandEndpoints = [
  endpoint({
    method: "POST",
    path: "/device/remoteUnlock",
    tag,
    summary:
      "Sends an unlock to a configured device through the gateway holding its connection (devices module with the modify right). 'Remote Unlock Requested'. The board has 60 s to answer; poll /device/getCommandStatus. 404 outside the caller's company, 409 while another unlock of the device is open.",
    auth: "token",
    permission: { modules: "devices", action: "modify" },
    body: z.object({ deviceId: unlockSchema.shape.id }),
    response: z.object({ message: z.string(), payload: commandShape }),
    async handler({ db, env, auth, body, now }) {
      return { message: COMMAND_MSG.sent, payload: wire(await requestUnlock(db, auth, { id: body.deviceId }, now, unlockTtlFor(env))) };
    },
  }),
  endpoint({
    method: "GET",
    path: "/device/getCommandStatus",
    tag,
    summary: "A remote command's status: pending → sent → succeeded / failed ('Command Succeeded' / 'Command Failed' in the activity log). 404 outside the caller's company.",
    auth: "token",
    permission: { modules: "devices" },
    query: commandIdSchema,
    response: z.object({ message: z.string(), payload: commandShape }),
    async handler({ db, auth, query, now }) {
      return { payload: wire(await getCommand(db, auth, query, now)) };
    },
  }),
];
