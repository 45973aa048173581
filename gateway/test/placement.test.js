/**
 * Where a board this copy lacks belongs (src/cells/placement.js): the Worker's answer against this
 * gateway's own cell. A gateway that has not read its first feed page does not know its cell yet, and
 * must not send a board of its own cell away (to that cell's public endpoint) on its way up.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { CellPlacement } from '../src/cells/placement.js'

const quiet = { info() {}, warn() {}, error() {}, debug() {} }

test('a board is placed elsewhere only once this gateway knows its own cell and the console names another', async () => {
  let own
  let clock = 0
  const worker = { deviceCell: async () => ({ cell: 'main', mqttUrl: 'mqtts://main.example:8884' }) }
  const placement = new CellPlacement({ worker, ownCell: () => own, log: quiet, now: () => clock })

  assert.deepEqual(await placement.place('1'), { where: 'here' }, 'before the first feed page: behind, not elsewhere')
  own = 'main'
  clock += 60_000
  assert.deepEqual(await placement.place('1'), { where: 'here' })
  own = 'b'
  assert.deepEqual(await placement.place('1', { fresh: true }), { where: 'elsewhere', cell: 'main', mqttUrl: 'mqtts://main.example:8884' })
})
