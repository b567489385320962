/** Parties of calls (wire facts 5.1): PartyInfo and its Identifier. */
import { type Static, Type } from 'typebox'
import { enumeration } from '../enumeration.js'

export const MAIN_TYPES = ['USER', 'DEVICE', 'SERVICE', 'EXTERNAL', 'UNKNOWN'] as const
export const MainType = enumeration(MAIN_TYPES, { title: 'MainType' })

export const Identifier = Type.Object(
  {
    loginName: Type.Optional(Type.String()),
    phoneNumber: Type.Optional(Type.String()),
  },
  { title: 'Identifier' },
)

export const PartyInfo = Type.Object(
  {
    id: Identifier,
    firstName: Type.Optional(Type.String()),
    lastName: Type.Optional(Type.String()),
    displayName: Type.Optional(Type.String()),
    type: Type.Optional(Type.Object({ main: MainType, subType: Type.Optional(Type.String()) })),
    /** Since 2.2: a directory user's vCard, relative to the location service's VCARD base (docs/vcard.md). */
    vcardPath: Type.Optional(Type.String()),
  },
  { title: 'PartyInfo' },
)
export type PartyInfo = Static<typeof PartyInfo>
