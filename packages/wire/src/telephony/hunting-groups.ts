/**
 * Hunting groups as the SDKs read them (client census 2, 5a): the user's log-on state and the groups of its
 * node. The C# SDK reads `Logon` (its JsonPropertyName, matched case-sensitively): C# clients get both
 * spellings (docs/groups.md, "The C# spelling").
 */
import { type Static, Type } from 'typebox'

/** GET /telephony/huntingGroupLogOn; `huntingGroupState` of OnDynamicStateChanged. */
export const HuntingGroupStatus = Type.Object(
  {
    logon: Type.Boolean({ description: 'whether the user is logged on in its hunting group' }),
    Logon: Type.Optional(
      Type.Boolean({ description: 'the same, for the C# SDK, which reads this spelling only' }),
    ),
  },
  { title: 'HuntingGroupStatus' },
)
export type HuntingGroupStatus = Static<typeof HuntingGroupStatus>

/** GET /telephony/huntingGroups. */
export const HuntingGroups = Type.Object(
  {
    hgList: Type.Array(Type.String(), {
      description: 'the numbers of the hunting groups of the node',
    }),
    currentHg: Type.Optional(
      Type.String({ description: 'the hunting group the user is a member of; absent: none' }),
    ),
  },
  { title: 'HuntingGroups' },
)
export type HuntingGroups = Static<typeof HuntingGroups>
