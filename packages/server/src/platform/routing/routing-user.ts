/** What routing needs to know of a directory user, read from their record. */
import type { UserAccount } from '../directory/account.js'
import type { RoutingUser } from './routing-service.js'

/** The RoutingUser of a directory account: its MOBILE device, its voice mail, its other devices. */
export function routingUserOf(account: UserAccount): RoutingUser {
  const devices = account.record.devices ?? []
  return {
    loginName: account.loginName,
    hasMobile: devices.some((device) => device.type === 'MOBILE'),
    hasVoicemail: account.record.voicemail !== undefined,
    hasAssociate: devices.length > 1,
  }
}
