/**
 * The console ↔ gateway wire types (docs/gateway-api.md), declared once for both sides.
 *
 * The gateway refers to them from JSDoc (`import('../protocol/wire.js').FeedPage`), the console with
 * type-only imports (`import type { FeedPage } from "../../gateway/src/protocol/wire"`). Nothing here
 * exists at run time, so neither side bundles the other's code.
 *
 * Version 1: additive fields may appear and must be ignored by the receiving side.
 */

// ---------------------------------------------------------------------------------------------
// Change feed: GET /api/gateway/changes?cursor=&limit=
// ---------------------------------------------------------------------------------------------

/** Record types the feed carries (the gateway ignores types it does not know). */
export type FeedRecordType = 'company' | 'device' | 'boardCredential' | 'user' | 'ekey' | 'groupKey' | 'pass' | 'scheduledOpen' | 'firmware' | 'cell' | 'lockdown'

/**
 * One change: an `upsert` carries the whole current record in `data`, a `delete` carries no data.
 * `type` stays `string` on the wire so a newer console can add types an older gateway skips.
 */
export type FeedChange<T = Record<string, unknown>> = {
  seq?: number
  type: FeedRecordType | (string & {})
  op: 'upsert' | 'delete'
  id: string
  data?: T
}

/**
 * One page of the feed. `reset` marks the first page of a snapshot (the gateway replaces its copy
 * once the last page is in); `more` asks for the next page at once; `cursor` is opaque.
 */
export type FeedPage = {
  v: 1
  changes: FeedChange[]
  cursor: string
  more: boolean
  reset?: boolean
}

/**
 * A customer company; `id` is its company code. `forceFirmware: false`: its boards are offered firmware
 * only when a user the company allows started it (the device's `firmwareStart`); absent counts as forced.
 */
export type CompanyRecord = {
  id: string
  active: boolean
  biometricRequired?: boolean
  forceFirmware?: boolean
  /** Forced offers only between these local times of each door's zone (decision 0094); null/absent: any time. */
  firmwareWindow?: { start: string; end: string } | null
  /** Until this date (YYYY-MM-DD, door's zone) the company's boards are in no rollout wave; null/absent: they are. */
  rolloutDeferredUntil?: string | null
}

/** An access board. `scheduleOpen: false` takes the door out of its company's scheduled-open hours. */
export type DeviceRecord = {
  id: string
  companyId: string
  name: string
  deviceType: string
  tz: string
  groupIds: string[]
  active: boolean
  scheduleOpen?: boolean
  unlockMs?: number
  /** How long the door may stand open before the board reports `door.heldOpen`; absent: no held-open alarm (the board's own default). */
  heldOpenMs?: number
  /** The firmware release (its id) an allowed user started for this board, or null. */
  firmwareStart?: string | null
}

/** A board's MQTT secret as a self-describing hash (`pbkdf2-sha256$i=…$salt$hash` or `scrypt$N=…,r=…,p=…$salt$hash`). */
export type BoardCredentialRecord = { deviceId: string; hash: string }

/** A person who can present credentials at boards. */
export type UserRecord = { id: string; companyId: string; active: boolean; lang?: string; fobs: string[]; phoneKeys: string[] }

/** Days are seven booleans, Monday first; dates `YYYY-MM-DD`, times `HH:mm`, `tz` an IANA name. */
type Days = [boolean, boolean, boolean, boolean, boolean, boolean, boolean] | boolean[]

export type EkeyWindow = {
  kind: 'ekey'
  access: 'full' | 'custom' | 'oneTime'
  tz: string
  startDate?: string | null
  endDate?: string | null
  days?: Days
  allDay?: boolean
  startTime?: string | null
  endTime?: string | null
  used?: boolean
}

export type GroupWindow = { kind: 'group'; tz: string; days: Days; allDay: boolean; startTime?: string | null; endTime?: string | null }

export type ScheduledOpenDay = { openWholeDay: boolean; openTime: string; closeTime: string }

export type ScheduledOpenWindow = {
  kind: 'scheduledOpen'
  tz: string
  fpi: boolean
  firstEntryAt: number | string | null
  week: ScheduledOpenDay[]
  exceptions: (ScheduledOpenDay & { date: string })[]
}

/** A direct key of one user for one device. */
export type EkeyRecord = { id: string; deviceId: string; userId: string; label: string; window: EkeyWindow }

/** A user's key for a device group; `startDate` (local to the window's zone, or null) is its first day. */
export type GroupKeyRecord = { id: string; groupId: string; userId: string; label: string; startDate: string | null; window: GroupWindow }

/**
 * A visitor pass (decision 0119): a guest (no account) invited by a host user, for `doors` (device ids) or
 * every device of `groupId` (live), within `window` (`access` `custom` for a visit, `oneTime` for one entry,
 * `used` once spent). `id` always starts with `v`, so it never collides with e-key, group-key or user ids.
 * A revoked pass is deleted from the feed.
 */
export type PassRecord = {
  id: string
  companyId: string
  guest: string
  hostUserId: string
  doors: string[]
  groupId: string | null
  window: EkeyWindow & { access: 'custom' | 'oneTime' }
}

/** A company's scheduled-open hours (one per company). */
export type ScheduledOpenRecord = { id: string; companyId: string; window: ScheduledOpenWindow }

/**
 * A company's lockdown state (one per company, id = the company's code; decision 0083). `epoch` goes up at
 * every start and end. In force while `active` and before `endsAt` (when set). `scopeIds` are group ids
 * (scope `groups`) or device ids (scope `doors`); `exemptUserIds` includes the holders of exempt roles.
 */
export type LockdownRecord = {
  id: string
  companyId: string
  epoch: number
  active: boolean
  mode: 'lockdown' | 'evacuation'
  scope: 'company' | 'groups' | 'doors'
  scopeIds: string[]
  exemptUserIds: string[]
  startedAt: number | null
  endsAt: number | null
}

/** A firmware release; at most one is `active` per device type. */
export type FirmwareRecord = { id: string; deviceType: string; version: string; size: number; sha256: string; active: boolean; description?: string; rollout?: RolloutPlan | null }

/**
 * A staged rollout taking this release to its device type (decision 0094): boards of an open wave
 * (gateway/src/firmware/rollout-plan.js) are offered it while `running`, nothing while `paused`; the
 * others keep the type's active release. `waves`: cumulative percentages ending at 100, the first the
 * canary; `canary`: device ids chosen for the first wave; `wave`: the highest open wave.
 */
export type RolloutPlan = { id: string; state: 'running' | 'paused'; wave: number; waves: number[]; canary: string[] }

/** The calling gateway's own cell (`id` = its name): `mqttUrl` is the public MQTT endpoint its boards' configurations name. */
export type CellRecord = { id: string; mqttUrl: string }

// ---------------------------------------------------------------------------------------------
// A device's cell: GET /api/gateway/devices/<deviceId>/cell
// ---------------------------------------------------------------------------------------------

/** Where a live device's boards belong (any cell's device); the gateway redirects a board of another cell there. */
export type DeviceCell = { v: 1; deviceId: string; cell: string; mqttUrl: string }

// ---------------------------------------------------------------------------------------------
// Event ingestion: POST /api/gateway/events
// ---------------------------------------------------------------------------------------------

/**
 * An event as the gateway stores and sends it. `id` is `<deviceId>/<board's event id>`, unique
 * across gateways, so a resent event is stored once. `at` is when it happened (board clock for board
 * events), `receivedAt` when the gateway stored it, both epoch milliseconds.
 */
export type WireEvent = {
  id: string
  /** absent only on `gateway.started`, which is about the gateway itself */
  deviceId: string
  type: EventType | (string & {})
  at: number
  receivedAt?: number
  gatewayId?: string
  data: Record<string, unknown>
}

export type EventType =
  | 'door.opened'
  | 'door.closed'
  | 'door.forced'
  | 'door.heldOpen'
  | 'sensor'
  | 'battery'
  | 'location'
  | 'tamper'
  | 'panic.pressed'
  | 'command.result'
  | 'access.granted'
  | 'access.denied'
  | 'schedule.firstEntry'
  | 'firmware.progress'
  | 'firmware.result'
  | 'board.presence'
  | 'gateway.started'

/** The request body: at most 1000 events and 2 MB. */
export type EventBatch = { v: 1; gatewayId: string; events: WireEvent[] }

/**
 * The answer: new rows, ids already stored, and the events the console cannot place (the gateway keeps
 * those in its dead-letter file). A rejected entry without a string id is reported with `id: null`.
 */
export type EventBatchResult = { accepted: number; duplicates: number; rejected?: { id: string | null; reason: string }[] }

/** `POST /api/gateway/commands/claim`: the boards connected to the calling gateway. */
export type CommandClaim = { v: 1; boards: string[] }
/**
 * A console command handed to the gateway that claimed it. `expiresAt` is on the console's clock;
 * `expiresInMs` is what was left of its life when it was claimed, which the gateway adds to its own
 * clock for the `expiresAt` it publishes, so a clock difference neither drops nor prolongs a command.
 */
export type ClaimedCommand = { id: string; boardId: string; cmd: 'unlock'; args: Record<string, never>; expiresAt: number; expiresInMs: number }
export type CommandClaimResult = { v: 1; commands: ClaimedCommand[] }

// ---------------------------------------------------------------------------------------------
// Access decisions (the data of `access.granted` / `access.denied` events)
// ---------------------------------------------------------------------------------------------

/** What a board presented: the app's user id, a fob number or a phone key. */
export type Credential = { type: 'user' | 'fob' | 'phone'; id: string }

/** The key kinds a decision can name: an e-key, a group key or a visitor pass. */
export type KeyKind = 'ekey' | 'group' | 'pass'

/**
 * An access decision as recorded. `keyKind: "ekey"` with a one-time key tells the console the key is
 * spent, `keyKind: "pass"` with a one-entry pass the pass; `corr` ties the event to the board's request.
 * For a visitor pass `userId` and `keyId` are the pass id (a guest is not a user) and `keyKind` `pass`, on
 * a denial too, once the pass was looked at (docs/gateway-api.md, "Event types").
 */
export type AccessDecisionData = {
  credential: Credential
  userId: string | null
  keyId: string | null
  keyKind: KeyKind | null
  reason: string
  corr?: string
}

/** `schedule.firstEntry`: the company's first authorized entry inside its scheduled-open hours. */
export type FirstEntryData = { scheduledOpenId: string; companyId: string; firstEntryAt: number }

/** `firmware.progress`, sent at each 10 % step a board reaches. */
export type FirmwareProgressData = { releaseId: string; version: string; attempt: number; received: number; blocks: number; percent: number }

/**
 * `board.presence`: a board connected to (`online: true`) or disconnected from this gateway instance
 * (`gatewayId`), at `at` on the gateway's clock. Id `<deviceId>/gw/prs.<start>.<n>`. Not an activity row.
 */
export type BoardPresenceData = { online: boolean }

/**
 * `gateway.started` (no `deviceId`, empty data, id `gw/start.<start>`): the instance `gatewayId` started
 * at `at`, so every board it reported online before that is offline.
 */
export type GatewayStartedData = Record<string, never>

/** `firmware.result`, sent by the board after it verified (or failed to verify) the image. */
export type FirmwareResultData = { releaseId: string; ok: boolean; error?: string }
