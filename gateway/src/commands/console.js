/**
 * Commands an admin sends from the console (docs/gateway-api.md §4, decision 0112). The gateway asks
 * the Worker for the open commands of the boards connected to it right now; the Worker hands each
 * command to one caller only, so with several gateways the one holding the board's connection delivers
 * it, once. A claimed command goes the way of any other (`Gateway.sendCommand`: the durable outbox,
 * then `boards/{id}/cmd` with the console's `expiresAt`); the board's `command.result` event comes back
 * through the event queue. A command this gateway cannot deliver simply expires in the console.
 */

/** How often the connected boards' commands are asked for: an unlock should open within a few seconds. */
export const COMMAND_POLL_MS = 2000
/** Board ids per claim call (the Worker's limit). */
const BOARDS_PER_CALL = 1000

export class ConsoleCommands {
  #timer = null
  #stopped = false
  /** @type {Promise<void>|null} */
  #running = null

  /**
   * @param {{worker: import('../sync/worker-client.js').WorkerClient, boards: () => string[],
   *   send: (boardId: string, cmd: object) => Promise<void>, log: import('../log.js').Logger, intervalMs?: number}} opts
   *   boards: the ids of the boards connected to this gateway now
   */
  constructor({ worker, boards, send, log, intervalMs = COMMAND_POLL_MS }) {
    this.worker = worker
    this.boards = boards
    this.send = send
    this.log = log
    this.intervalMs = intervalMs
  }

  start() {
    const tick = () => {
      if (this.#stopped) return
      this.#running = this.pollOnce()
        .catch((e) => this.log.warn('could not fetch console commands', { error: e.message }))
        .then(() => {
          this.#running = null
          if (!this.#stopped) this.#timer = setTimeout(tick, this.intervalMs).unref()
        })
    }
    this.#timer = setTimeout(tick, this.intervalMs).unref()
    return this
  }

  /** Claims and publishes the connected boards' commands; resolves with how many were published. */
  async pollOnce() {
    const boards = this.boards()
    let sent = 0
    for (let i = 0; i < boards.length; i += BOARDS_PER_CALL) {
      const { commands } = await this.worker.claimCommands(boards.slice(i, i + BOARDS_PER_CALL))
      for (const c of commands) {
        try {
          // the remaining life on this gateway's clock (the console's may differ)
          const expiresAt = Date.now() + Math.max(0, c.expiresInMs ?? c.expiresAt - Date.now())
          await this.send(c.boardId, { id: c.id, cmd: c.cmd, args: c.args ?? {}, expiresAt })
          sent++
          this.log.info('console command sent', { boardId: c.boardId, id: c.id, cmd: c.cmd })
        } catch (e) {
          // e.g. the board's outbox is full: the console fails the command when it expires
          this.log.warn('could not send a console command', { boardId: c.boardId, id: c.id, error: e.message })
        }
      }
    }
    return sent
  }

  async stop() {
    this.#stopped = true
    clearTimeout(this.#timer)
    await this.#running
  }
}
