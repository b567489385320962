/**
 * A directory user's vCard 4.0 (RFC 6350), written by ical.js (docs/vcard.md, docs/dependencies.md): FN, N,
 * UID, TEL for the company phone (its public number too, when the plan has one) and each other device,
 * EMAIL when known, ORG the company.
 */

import type { User } from '@openness/wire'
import ICAL from 'ical.js'

/** What the card says of the company. */
export interface VcardCompany {
  name: string
  /** The public number of the company phone in E.164 (`+33155661001`), when the plan gives one. */
  publicNumber?: string
}

/** The text of the vCard of `user` (its full record, devices included). */
export function userVcard(user: User, loginName: string, company: VcardCompany): string {
  const card = new ICAL.Component('vcard')
  card.addPropertyWithValue('version', '4.0')
  card.addPropertyWithValue(
    'prodid',
    '-//Openness//Communication Platform REST Openness Service//EN',
  )
  card.addPropertyWithValue('uid', `urn:openness:user:${encodeURIComponent(loginName)}`)
  card.addPropertyWithValue('kind', 'individual')
  const names = [user.firstName, user.lastName].filter((part) => part !== undefined && part !== '')
  card.addPropertyWithValue('fn', names.length > 0 ? names.join(' ') : loginName)
  const n = new ICAL.Property('n')
  n.setValue([user.lastName ?? '', user.firstName ?? '', '', '', ''])
  card.addProperty(n)
  card.addPropertyWithValue('org', company.name)
  if (user.companyPhone !== undefined) {
    addTel(card, user.companyPhone, ['work', 'voice'], 1)
    if (company.publicNumber !== undefined)
      addTel(card, `tel:${company.publicNumber}`, ['work', 'voice'], undefined, 'uri')
  }
  for (const device of user.devices ?? []) {
    if (device.id === undefined || device.id === user.companyPhone) continue
    addTel(card, device.id, device.type === 'MOBILE' ? ['cell'] : ['work', 'voice'])
  }
  if (user.companyEmail !== undefined) {
    const email = new ICAL.Property('email')
    email.setParameter('type', 'work')
    email.setValue(user.companyEmail)
    card.addProperty(email)
  }
  // Every content line ends with CRLF (RFC 6350, 3.2), the last one too.
  return `${card.toString()}\r\n`
}

function addTel(
  card: ICAL.Component,
  value: string,
  types: string[],
  pref?: number,
  valueType?: 'uri',
): void {
  const tel = new ICAL.Property('tel')
  if (valueType) tel.setParameter('value', valueType)
  tel.setParameter('type', types)
  if (pref !== undefined) tel.setParameter('pref', String(pref))
  tel.setValue(value)
  card.addProperty(tel)
}
