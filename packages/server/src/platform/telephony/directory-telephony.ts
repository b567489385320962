/**
 * The TelephonyDirectory port over the directory: who owns a device, what a dialed string reaches (a
 * device, a user by login name, an outside number after the outside-line prefix), and the devices the
 * engine starts with. It reads the directory at each call, so users and devices changed through the API
 * are seen at once.
 */
import type { Device } from '@openness/wire'
import type { Directory, UserAccount } from '../directory/directory.js'
import { supervisionGroupId } from '../groups/user-groups.js'
import { type CompanyNumbers, dialableNumber } from '../numbering/numbering.js'
import { PlatformError } from '../platform-error.js'
import { newDevice } from './operations/directory-devices.js'
import type {
  CallFeatures,
  OutsideBehaviour,
  PartyPerson,
  Supervision,
  TelephonyDirectory,
} from './telephony-directory.js'
import type { DeviceRecord, Endpoint } from './telephony-state.js'

export class DirectoryTelephony implements TelephonyDirectory {
  constructor(private readonly directory: Directory) {}

  /** The supervision groups by supervised user, made once per settings object (they change with the file). */
  #supervision: { settings: object; bySupervised: Map<string, Supervision[]> } | undefined

  supervisorsOf(loginName: string): readonly Supervision[] {
    const { settings } = this.directory
    if (this.#supervision?.settings !== settings) {
      const bySupervised = new Map<string, Supervision[]>()
      for (const group of settings.supervisionGroups ?? [])
        for (const supervised of group.supervised)
          bySupervised.set(supervised, [
            ...(bySupervised.get(supervised) ?? []),
            { groupId: supervisionGroupId(group.name), supervisors: group.supervisors },
          ])
      this.#supervision = { settings, bySupervised }
    }
    return this.#supervision.bySupervised.get(loginName) ?? NO_SUPERVISION
  }

  isMobile(deviceId: string): boolean {
    const user = this.directory.findUserByDevice(deviceId)
    return (user?.record.devices ?? []).some(
      (device) => device.id === deviceId && device.type === 'MOBILE',
    )
  }

  ownerOfDevice(deviceId: string): PartyPerson | undefined {
    const user = this.directory.findUserByDevice(deviceId)
    if (user === undefined) return undefined
    const { loginName, firstName, lastName, type } = user.record
    return {
      loginName,
      ...(firstName !== undefined && { firstName }),
      ...(lastName !== undefined && { lastName }),
      ...(type === 'MULTIMEDIA' && { multimedia: true }),
    }
  }

  /**
   * In this order: a device id (that device), a user's login name (its MAIN device, else its first one), the
   * numbering plan's voice-mail number (the voice-mail service), a number starting with the numbering plan's outside-line prefix (the rest, an outside number), a number
   * in +E.164 (what the numbering plan's rule dials for it: one of the company's public numbers is its
   * extension, any other goes through the outside line; docs/numbering.md).
   */
  resolve(dialed: string): Endpoint | undefined {
    if (dialed.startsWith('+')) {
      const digits = this.dialable(dialed)
      return digits === undefined || digits.startsWith('+') ? undefined : this.resolve(digits)
    }
    const owner = this.directory.findUserByDevice(dialed)
    if (owner !== undefined) return { number: dialed, deviceId: dialed, loginName: owner.loginName }
    const user = this.directory.findUser(dialed)
    if (user !== undefined) {
      const device = mainDevice(user)
      return device === undefined
        ? undefined
        : { number: device, deviceId: device, loginName: user.loginName }
    }
    const { externalPrefix: prefix, voicemailNumber } = this.directory.settings.numberingPlan
    // The engine takes it to the voice mail of the user who dials it (feature-support.ts requireDestination).
    if (dialed === voicemailNumber) return { number: dialed, service: 'VOICEMAIL' }
    if (prefix !== '' && dialed.startsWith(prefix) && dialed.length > prefix.length)
      return { number: dialed.slice(prefix.length) }
    return undefined
  }

  /**
   * The call features of a user: its voice mail when it has one; park and callback for STANDARD users
   * (the specification marks them "standard only"); recording for everyone; its pickup group; the intrusion
   * right and the protection against it, as the directory file gives them.
   */
  featuresOf(loginName: string): CallFeatures {
    const user = this.directory.findUser(loginName)
    if (user === undefined) return {}
    const standard = user.record.type === 'STANDARD'
    const { voicemail, pickupGroup, intrusion, intrusionProtection } = user.record
    // Built without spreading conditional parts: called for each party of each call view an engine command
    // makes, where spreads were 4 % of the embedded service's CPU (docs/performance.md).
    const features: CallFeatures =
      voicemail === undefined
        ? { park: standard, recording: true, callBack: standard }
        : { voicemail: voicemail.number, park: standard, recording: true, callBack: standard }
    if (pickupGroup !== undefined) features.pickupGroup = pickupGroup
    if (intrusion === true) features.intrusion = true
    if (intrusionProtection === true) features.intrusionProtection = true
    return features
  }

  /** Whether the user is a desk-sharing user (the directory file's `deskSharing`). */
  isDeskSharingUser(loginName: string): boolean {
    return this.directory.findUser(loginName)?.record.deskSharing === true
  }

  /** Whether the number is a desk-sharing set of the directory file (`deskSharingSets`). */
  isDeskSharingSet(number: string): boolean {
    return (this.directory.settings.deskSharingSets ?? []).some((set) => set.number === number)
  }

  /**
   * The directory file's rule for an outside number (`outsideParties`): the rule naming the number, else
   * the rule of its longest prefix; undefined without one (it rings until the ringing timeout).
   */
  outsideBehaviour(number: string): OutsideBehaviour | undefined {
    let best: { length: number; rule: NonNullable<typeof rules>[number] } | undefined
    const rules = this.directory.settings.outsideParties
    for (const rule of rules ?? []) {
      if (rule.number === number) {
        best = { length: Number.POSITIVE_INFINITY, rule }
        break
      }
      if (
        rule.prefix !== undefined &&
        number.startsWith(rule.prefix) &&
        (best === undefined || rule.prefix.length > best.length)
      )
        best = { length: rule.prefix.length, rule }
    }
    if (best === undefined) return undefined
    const { behaviour, afterSeconds, hangUpAfterSeconds } = best.rule
    return {
      kind: behaviour,
      ...(afterSeconds !== undefined && { afterMs: Math.round(afterSeconds * 1000) }),
      ...(hangUpAfterSeconds !== undefined && {
        hangUpAfterMs: Math.round(hangUpAfterSeconds * 1000),
      }),
    }
  }

  /**
   * The company's public numbers: the numbering plan's publicNumberPrefix and the extensions an incoming
   * call to it rings (`resolveIncoming`); undefined without a prefix.
   */
  companyNumbers(): CompanyNumbers | undefined {
    const publicNumberPrefix = this.directory.settings.numberingPlan.publicNumberPrefix
    if (publicNumberPrefix === undefined) return undefined
    return {
      publicNumberPrefix,
      reaches: (extension) => this.resolveIncoming(extension) !== undefined,
    }
  }

  /** The digits the numbering plan's rule dials for a number in +E.164; undefined for no such number. */
  private dialable(international: string): string | undefined {
    try {
      return dialableNumber(
        { phoneNumber: international },
        this.directory.planDialingRule(),
        this.companyNumbers(),
      )
    } catch (error) {
      if (error instanceof PlatformError && error.type === 'BAD_PARAMETER') return undefined
      throw error
    }
  }

  /**
   * The device an incoming call to `dialed` rings: a public number (the numbering plan's
   * `publicNumberPrefix` followed by an extension) or an extension; an extension is a device id, else a
   * user's companyPhone (its MAIN device).
   */
  resolveIncoming(dialed: string): Endpoint | undefined {
    const extension = this.extensionOf(dialed)
    const owner = this.directory.findUserByDevice(extension)
    if (owner !== undefined)
      return { number: extension, deviceId: extension, loginName: owner.loginName }
    const user = this.directory.findUserBy('companyPhone', extension)
    const device = user === undefined ? undefined : mainDevice(user)
    return user === undefined || device === undefined
      ? undefined
      : { number: device, deviceId: device, loginName: user.loginName }
  }

  /** `dialed` without the numbering plan's `publicNumberPrefix`, when it starts with it and goes on. */
  extensionOf(dialed: string): string {
    const prefix = this.directory.settings.numberingPlan.publicNumberPrefix
    return prefix !== undefined && dialed.startsWith(prefix) && dialed.length > prefix.length
      ? dialed.slice(prefix.length)
      : dialed
  }

  /**
   * The ids of the devices the directory gives the user, in its order, those the directory takes as the user's
   * (`ownerOfDevice`); none for no such user. What the engine's devices follow (engine-devices.ts).
   */
  deviceIdsOf(loginName: string): string[] {
    return deviceIds(this.directory.findUser(loginName)).filter(
      (deviceId) => this.directory.findUserByDevice(deviceId)?.loginName === loginName,
    )
  }

  /** Every user's login name. */
  userLogins(): string[] {
    return this.directory.listUserLogins()
  }

  /**
   * Every device of every user, mutable and not muted, in service but a desk-sharing user's number (logged on
   * at no set yet): the engine's devices at first start.
   */
  devices(): DeviceRecord[] {
    return this.directory.listUserLogins().flatMap((loginName) => {
      const user = this.directory.findUser(loginName)
      const deskSharing = user?.record.deskSharing === true
      return deviceIds(user).map((deviceId) => newDevice(deviceId, loginName, deskSharing))
    })
  }
}

const NO_SUPERVISION: readonly Supervision[] = Object.freeze([])

function deviceIds(user: UserAccount | undefined): string[] {
  return (user?.record.devices ?? []).flatMap((device: Device) => (device.id ? [device.id] : []))
}

/** The id of the user's MAIN device, else of its first device with an id. */
function mainDevice(user: UserAccount): string | undefined {
  const devices = user.record.devices ?? []
  return (
    devices.find((device) => device.role === 'MAIN' && device.id) ?? devices.find((d) => d.id)
  )?.id
}
