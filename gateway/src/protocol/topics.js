/** Topic names of PROTOCOL.md. Board ids are one topic level: no '/', '+', '#' or NUL. */

export const UP = new Set(['status', 'access/req', 'events', 'fw/req', 'fw/progress', 'fw/result'])
export const DOWN = new Set(['access/res', 'config', 'schedule', 'cmd', 'fw/offer', 'fw/block', 'error', 'time'])

const BOARD_ID = /^[A-Za-z0-9._:-]{1,64}$/

/** @param {string} id */
export const isBoardId = (id) => typeof id === 'string' && BOARD_ID.test(id)

/** @param {string} boardId @param {string} name */
export const topic = (boardId, name) => `boards/${boardId}/${name}`

/**
 * @param {string} t
 * @returns {{boardId: string, name: string}|null} null when `t` is not under boards/{id}/
 */
export function parseTopic(t) {
  if (!t.startsWith('boards/')) return null
  const slash = t.indexOf('/', 7)
  if (slash < 0) return null
  return { boardId: t.slice(7, slash), name: t.slice(slash + 1) }
}
