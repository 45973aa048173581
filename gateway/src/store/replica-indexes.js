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
  /** `{type, key}` of every e-key and group key with this fob number, in any company (decide.js picks the door's). */
  keysByFob = new Groups()
  ekeysByDeviceUser = new Groups()
  groupKeysByGroupUser = new Groups()
  devicesByCompany = new Groups()
  /** @type {Map<string, any>} */ scheduleByCompany = new Map()
  /** @type {Map<string, any>} */ activeFirmwareByType = new Map()

  /** @param {string} type @param {any} rec the record as it was, now gone or replaced */
  remove(type, rec) {
    const same = (r) => r.id === rec.id
    switch (type) {
      case 'user':
        for (const p of rec.phoneKeys ?? []) {
          const at = rec.companyId + '\0' + p
          if (this.userByPhoneKey.get(at)?.id === rec.id) this.userByPhoneKey.delete(at)
        }
        break
      case 'ekey':
      case 'groupKey':
        if (rec.fob) this.keysByFob.remove(rec.fob, (e) => e.type === type && e.key.id === rec.id)
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
        break
    }
  }

  /** @param {string} type @param {any} rec the record's new version */
  add(type, rec) {
    switch (type) {
      case 'user':
        for (const p of rec.phoneKeys ?? []) this.userByPhoneKey.set(rec.companyId + '\0' + p, rec)
        break
      case 'ekey':
      case 'groupKey':
        if (rec.fob) this.keysByFob.add(rec.fob, { type, key: rec })
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
        break
    }
  }
}
