/**
 * Who a connected client is, set by the authenticate handler and read by everything after it. Kept on
 * the aedes client under symbols, so no MQTT field or other code can set it.
 */

const IDENTITY = Symbol('identity')
const CRED_HASH = Symbol('credentialHash')

/** @typedef {import('./hooks.js').Identity} Identity */

/** @param {import('aedes').Client} client @returns {Identity|undefined} */
export const identityOf = (client) => client[IDENTITY]

/** The board's id when the client is a board, else undefined. */
export const boardOf = (client) => {
  const identity = identityOf(client)
  return identity?.role === 'board' ? identity.boardId : undefined
}

/** The credential hash a board connected with, to close it when the console changes its credential. */
export const credentialHashOf = (client) => client[CRED_HASH]

/** @param {import('aedes').Client} client @param {Identity} identity @param {string} [credentialHash] */
export function setIdentity(client, identity, credentialHash) {
  client[IDENTITY] = identity
  if (identity.role === 'board') client[CRED_HASH] = credentialHash
}
