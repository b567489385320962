/** A call back request waiting for a user (wire facts 5.3: `partyInfo` is required by the Node SDK). */
import { type Static, Type } from 'typebox'
import { PartyInfo } from './party.js'

export const Callback = Type.Object(
  { callbackId: Type.String(), partyInfo: PartyInfo },
  { title: 'Callback' },
)
export type Callback = Static<typeof Callback>
