/**
 * Which wave of a staged firmware rollout a board belongs to (decision 0094). The console (which opens
 * waves and counts their failures) and every gateway (which offers the release only to boards of an
 * open wave) compute it from the same plan and the board's id alone, so neither needs the other's list
 * of boards and each cell decides for its own boards without asking.
 *
 * A plan: `{id, state, wave, waves, canary}` — `waves` are cumulative percentages of the device type's
 * boards, ascending and ending at 100 (the first is the canary wave); `canary` lists boards chosen by
 * hand for the first wave whatever their share; `wave` is the highest open wave; `state` is `running`
 * or `paused`.
 */

/** FNV-1a over the UTF-8 bytes: stable across runtimes (the Worker and Node), no dependencies. */
function fnv1a(text) {
  let h = 0x811c9dc5
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

/** The board's place in this rollout, 0–9999: salted by the rollout so each rollout draws other canaries. */
export function bucketOf(rolloutId, deviceId) {
  return fnv1a(`${rolloutId}:${deviceId}`) % 10000
}

/**
 * The wave (0 = canary) of a board in a plan.
 * @param {{id: string|number, waves: number[], canary?: string[]|null}} plan
 * @param {string} deviceId the device id as the feed names it
 */
export function waveOf(plan, deviceId) {
  if (plan.canary?.includes(String(deviceId))) return 0
  const b = bucketOf(plan.id, deviceId)
  const i = plan.waves.findIndex((percent) => b < percent * 100)
  return i === -1 ? plan.waves.length - 1 : i
}

/** Whether the board's wave has been opened. */
export function admitted(plan, deviceId) {
  return waveOf(plan, deviceId) <= plan.wave
}
