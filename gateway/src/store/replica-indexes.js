/**
 * Lookups the access path needs in O(1), kept up to date change by change: each change takes the
 * record's old version out and puts its new version in, so a page costs what it changes, not what the
 * copy holds.
 */

/** Records grouped under a key, each group a small array (a door's keys for one user, a company's doors). */
class Groups {
  /** @type {Map<string, any[]>} */ #m = new Map()

  /** @param {string} key @returns {any[]|undefined} */
  get(key) {
    return this.#m.get(key)
  }

  /** @param {string} key @param {any} entry */
  add(key, entry) {
    const group = this.#m.get(key)
    if (group) group.push(entry)
    else this.#m.set(key, [entry])
  }

  /** @param {string} key @param {(entry: any) => boolean} isIt */
  remove(key, isIt) {
    const group = this.#m.get(key)
    const at = group?.findIndex(isIt) ?? -1
    if (at < 0) return
    if (group.length === 1) this.#m.delete(key)
    else group.splice(at, 1)
  }
}

export class Indexes {
  /** A user by one of its phone keys, within the user's company: another company's numbers never collide. */
  userByPhoneKey = new Map()
  /**
   * `{type, key}` of the e-keys and group keys with a fob, by their user's company and fob number: the
   * key's user says which company the fob belongs to, the same record decisions check. A key whose
   * user is not (yet) in the copy is filed when the user comes; a user that changes company takes its
   * keys along.
   */
  keysByFob = new Groups()
  /** `{type, key}` of the keys with a fob, by user: what a user's change re-files. */
  #fobKeysByUser = new Groups()
  ekeysByDeviceUser = new Groups()
  groupKeysByGroupUser = new Groups()
  devicesByCompany = new Groups()
  /** @type {Map<string, any>} */ scheduleByCompany = new Map()
  /** @type {Map<string, any>} */ activeFirmwareByType = new Map()
  /** The release a staged rollout is taking to a device type (its record carries the plan, decision 0094). */
  /** @type {Map<string, any>} */ rolloutFirmwareByType = new Map()

  /** @param {Map<string, Map<string, any>>} tables the copy these index */
  constructor(tables) {
    this.users = tables.get('user')
  }

  /** @param {string} type @param {any} rec the record as it was, now gone or replaced */
  remove(type, rec) {
    const same = (r) => r.id === rec.id
    switch (type) {
      case 'user':
        for (const p of rec.phoneKeys ?? []) {
          const at = rec.companyId + '\0' + p
          if (this.userByPhoneKey.get(at)?.id === rec.id) this.userByPhoneKey.delete(at)
        }
        for (const e of this.#fobKeysByUser.get(rec.id) ?? []) this.#unfile(rec.companyId, e.type, e.key)
        break
      case 'ekey':
      case 'groupKey':
        if (rec.fob) {
          this.#fobKeysByUser.remove(rec.userId, (e) => e.type === type && e.key.id === rec.id)
          const user = this.users.get(rec.userId)
          if (user) this.#unfile(user.companyId, type, rec)
        }
        if (type === 'ekey') this.ekeysByDeviceUser.remove(rec.deviceId + '\0' + rec.userId, same)
        else this.groupKeysByGroupUser.remove(rec.groupId + '\0' + rec.userId, same)
        break
      case 'device':
        this.devicesByCompany.remove(rec.companyId, same)
        break
      case 'scheduledOpen':
        if (this.scheduleByCompany.get(rec.companyId)?.id === rec.id) this.scheduleByCompany.delete(rec.companyId)
        break
      case 'firmware':
        if (this.activeFirmwareByType.get(rec.deviceType)?.id === rec.id) this.activeFirmwareByType.delete(rec.deviceType)
        if (this.rolloutFirmwareByType.get(rec.deviceType)?.id === rec.id) this.rolloutFirmwareByType.delete(rec.deviceType)
        break
    }
  }

  /** @param {string} type @param {any} rec the record's new version */
  add(type, rec) {
    switch (type) {
      case 'user':
        for (const p of rec.phoneKeys ?? []) this.userByPhoneKey.set(rec.companyId + '\0' + p, rec)
        for (const e of this.#fobKeysByUser.get(rec.id) ?? []) this.keysByFob.add(rec.companyId + '\0' + e.key.fob, e)
        break
      case 'ekey':
      case 'groupKey':
        if (rec.fob) {
          this.#fobKeysByUser.add(rec.userId, { type, key: rec })
          const user = this.users.get(rec.userId)
          if (user) this.keysByFob.add(user.companyId + '\0' + rec.fob, { type, key: rec })
        }
        if (type === 'ekey') this.ekeysByDeviceUser.add(rec.deviceId + '\0' + rec.userId, rec)
        else this.groupKeysByGroupUser.add(rec.groupId + '\0' + rec.userId, rec)
        break
      case 'device':
        this.devicesByCompany.add(rec.companyId, rec)
        break
      case 'scheduledOpen':
        this.scheduleByCompany.set(rec.companyId, rec)
        break
      case 'firmware':
        if (rec.active) this.activeFirmwareByType.set(rec.deviceType, rec)
        if (rec.rollout) this.rolloutFirmwareByType.set(rec.deviceType, rec)
        break
    }
  }

  /** @param {string} companyId @param {string} type @param {any} key */
  #unfile(companyId, type, key) {
    this.keysByFob.remove(companyId + '\0' + key.fob, (e) => e.type === type && e.key.id === key.id)
  }
}
