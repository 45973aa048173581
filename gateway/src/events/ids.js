/**
 * Activity ids. Every event the console stores has the id `<board id>/<id within the board>`:
 *
 * - a board's own events (and its firmware results) keep the id the board chose, which matches
 *   `[A-Za-z0-9._:-]{1,64}` and so never contains a '/';
 * - events the gateway makes about a board (access decisions, firmware progress, first person in)
 *   live under `gw/`: `gw/acc.<corr>`, `gw/fwp.<release>.<attempt>.<percent>`, `gw/fpi.<schedule>.<ms>`.
 *
 * So no board event id can be taken for a gateway record or hide one, whatever the board picks.
 */
export const GATEWAY_NAMESPACE = 'gw/'

/** @param {string} local e.g. `acc.<corr>` */
export const gatewayEventId = (local) => GATEWAY_NAMESPACE + local
