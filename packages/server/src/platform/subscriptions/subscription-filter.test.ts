/**
 * compileFilter, rule by rule (specification, "Subscriptions" Selector and "Events" items 6 to 8): each row
 * gives the selectors, the session, and either the routes and supervised users or the refusal's message.
 */
import { EVENT_PACKAGES, type Selector, type UserRight } from '@openness/wire'
import { describe, expect, it } from 'vitest'
import { type CompiledFilter, compileFilter, type FilterContext } from './subscription-filter.js'

/** apiRights of the demo directory's users this table uses. */
const RIGHTS: Record<string, readonly UserRight[]> = {
  alice: ['TELEPHONY_BASIC', 'TELEPHONY_ADVANCED', 'MESSAGING'],
  bob: ['TELEPHONY_BASIC', 'TELEPHONY_ADVANCED', 'MESSAGING'],
  dave: ['TELEPHONY_BASIC'],
  franck: ['TELEPHONY_BASIC', 'TELEPHONY_ADVANCED'],
  lea: ['TELEPHONY_BASIC', 'MESSAGING'],
}

/** The pilots of the contact center this table knows. */
const PILOTS = new Set(['3000', '3001'])

function context(owner: string, admin: boolean): FilterContext {
  return {
    owner,
    admin,
    isUser: (login) => RIGHTS[login] !== undefined,
    isPilot: (number) => PILOTS.has(number),
    pilots: () => [...PILOTS],
    operators: () => ['bob', 'franck'],
    supervises: (supervisor, agent) => supervisor === 'alice' && agent === 'bob',
    maySupervise: (login) =>
      (RIGHTS[login] ?? []).some(
        (right) => right === 'TELEPHONY_ADVANCED' || right === 'MESSAGING',
      ),
  }
}

const USER = context('alice', false)
const ADMIN = context('admin', true)
const TELEPHONY = [...EVENT_PACKAGES.telephony]

interface Accepted {
  name: string
  context: FilterContext
  selectors: Selector[]
  routes: { eventNames: string[]; loginNames: string[] }[]
  supervised: string[]
}

interface Refused {
  name: string
  context: FilterContext
  selectors: Selector[]
  message: RegExp
}

const ACCEPTED: Accepted[] = [
  {
    name: 'a package name stands for every event of the package',
    context: USER,
    selectors: [{ names: ['telephony'] }],
    routes: [{ eventNames: TELEPHONY, loginNames: ['alice'] }],
    supervised: [],
  },
  {
    name: 'exact event names of one package',
    context: USER,
    selectors: [{ names: ['OnCallCreated', 'OnCallRemoved'] }],
    routes: [{ eventNames: ['OnCallCreated', 'OnCallRemoved'], loginNames: ['alice'] }],
    supervised: [],
  },
  {
    name: 'one selector per package',
    context: USER,
    selectors: [{ names: ['telephony'] }, { names: ['user'] }],
    routes: [
      { eventNames: TELEPHONY, loginNames: ['alice'] },
      { eventNames: ['OnUserInfoChanged', 'OnPreferencesChanged'], loginNames: ['alice'] },
    ],
    supervised: [],
  },
  {
    name: 'user session without ids: its own events',
    context: USER,
    selectors: [{ names: ['user'] }],
    routes: [{ eventNames: ['OnUserInfoChanged', 'OnPreferencesChanged'], loginNames: ['alice'] }],
    supervised: [],
  },
  {
    name: 'user session with an empty ids list: its own events (wire facts 4)',
    context: USER,
    selectors: [{ names: ['user'], ids: [] }],
    routes: [{ eventNames: ['OnUserInfoChanged', 'OnPreferencesChanged'], loginNames: ['alice'] }],
    supervised: [],
  },
  {
    name: 'user session naming its own login',
    context: USER,
    selectors: [{ names: ['telephony'], ids: ['alice'] }],
    routes: [{ eventNames: TELEPHONY, loginNames: ['alice'] }],
    supervised: [],
  },
  {
    name: 'families and origins are accepted and not used',
    context: USER,
    selectors: [{ names: ['telephony'], families: ['x'], origins: ['y'] }],
    routes: [{ eventNames: TELEPHONY, loginNames: ['alice'] }],
    supervised: [],
  },
  {
    name: 'administrator with valid ids: routes and supervised users',
    context: ADMIN,
    selectors: [{ names: ['telephony'], ids: ['alice', 'bob'] }],
    routes: [{ eventNames: TELEPHONY, loginNames: ['alice', 'bob'] }],
    supervised: ['alice', 'bob'],
  },
  {
    name: 'administrator: supervised users are the union of the selectors, each once',
    context: ADMIN,
    selectors: [
      { names: ['telephony'], ids: ['alice', 'alice'] },
      { names: ['user'], ids: ['alice', 'bob'] },
    ],
    routes: [
      { eventNames: TELEPHONY, loginNames: ['alice'] },
      { eventNames: ['OnUserInfoChanged', 'OnPreferencesChanged'], loginNames: ['alice', 'bob'] },
    ],
    supervised: ['alice', 'bob'],
  },
  {
    name: 'administrator: TELEPHONY_ADVANCED alone or MESSAGING alone is enough',
    context: ADMIN,
    selectors: [{ names: ['telephony'], ids: ['franck', 'lea'] }],
    routes: [{ eventNames: TELEPHONY, loginNames: ['franck', 'lea'] }],
    supervised: ['franck', 'lea'],
  },
  {
    name: 'company-wide events stay in the routes (the router sends them whatever the ids)',
    context: ADMIN,
    selectors: [{ names: ['userManagement'], ids: ['alice'] }],
    routes: [{ eventNames: ['OnUserCreated', 'OnUserDeleted'], loginNames: ['alice'] }],
    supervised: ['alice'],
  },
  {
    name: 'company-wide event names given exactly stay in the routes',
    context: ADMIN,
    selectors: [{ names: ['OnUserDeleted'], ids: ['bob'] }],
    routes: [{ eventNames: ['OnUserDeleted'], loginNames: ['bob'] }],
    supervised: ['bob'],
  },
  {
    name: 'administrator: company-wide events need no ids ("ids not checked"; the Node SDK sends [])',
    context: ADMIN,
    selectors: [{ names: ['userManagement'], ids: [] }],
    routes: [{ eventNames: ['OnUserCreated', 'OnUserDeleted'], loginNames: [] }],
    supervised: [],
  },
  {
    name: "the real product's packages beside a served one: accepted, routing nothing (Node SDK body)",
    context: USER,
    selectors: [
      { names: ['telephony'], ids: [] },
      { names: ['system'], ids: [] },
    ],
    routes: [{ eventNames: TELEPHONY, loginNames: ['alice'] }],
    supervised: [],
  },
  {
    name: "administrator: the special id '*' of rti and acdstats (Node and Java SDKs)",
    context: ADMIN,
    selectors: [
      { names: ['rti'], ids: ['*'] },
      { names: ['acdstats'], ids: ['*'] },
    ],
    routes: [],
    supervised: [],
  },
  {
    name: 'administrator: pbxManagement and rsi without ids, rti with its * id: accepted, nothing routed',
    context: ADMIN,
    selectors: [
      { names: ['pbxManagement'] },
      { names: ['rsi'], ids: [] },
      { names: ['rti'], ids: ['*'] },
    ],
    routes: [],
    supervised: [],
  },
  {
    name: 'administrator: agent events of the agents listed, as for any user package',
    context: ADMIN,
    selectors: [{ names: ['agent'], ids: ['bob'] }],
    routes: [{ eventNames: [...EVENT_PACKAGES.agent], loginNames: ['bob'] }],
    supervised: ['bob'],
  },
  {
    name: "a user session: its own agent events (an agent's states, a supervisor's help requests)",
    context: USER,
    selectors: [{ names: ['agent'] }],
    routes: [{ eventNames: [...EVENT_PACKAGES.agent], loginNames: ['alice'] }],
    supervised: [],
  },
  {
    name: "without ids (the C# SDK's selectors): agent events of every operator, pilot events of every pilot",
    context: ADMIN,
    selectors: [{ names: ['agent'] }, { names: ['pilot'], ids: [] }],
    routes: [
      { eventNames: [...EVENT_PACKAGES.agent], loginNames: ['bob', 'franck'] },
      { eventNames: [...EVENT_PACKAGES.pilot], loginNames: ['pilot:3000', 'pilot:3001'] },
    ],
    supervised: [],
  },
  {
    name: "a supervisor's session: the agent events of an agent of its groups",
    context: USER,
    selectors: [{ names: ['agent'], ids: ['bob'] }],
    routes: [{ eventNames: [...EVENT_PACKAGES.agent], loginNames: ['bob'] }],
    supervised: [],
  },
  {
    name: 'pilot events of the pilots named, routed by their subject',
    context: ADMIN,
    selectors: [{ names: ['pilot'], ids: ['3000', '3001', '3000'] }],
    routes: [{ eventNames: [...EVENT_PACKAGES.pilot], loginNames: ['pilot:3000', 'pilot:3001'] }],
    supervised: [],
  },
  {
    name: 'administrator: system routes the platform events, whatever the ids (none, [] or a node id)',
    context: ADMIN,
    selectors: [
      { names: ['system'], ids: [] },
      { names: ['OnCtiLinkDown'], ids: ['1'] },
      { names: ['system'] },
    ],
    routes: [
      { eventNames: [...EVENT_PACKAGES.system], loginNames: [] },
      { eventNames: ['OnCtiLinkDown'], loginNames: [] },
      { eventNames: [...EVENT_PACKAGES.system], loginNames: [] },
    ],
    supervised: [],
  },
  {
    name: "event names of the real product's packages, named exactly",
    context: USER,
    selectors: [
      { names: ['OnPbxLinkUp', 'OnCtiLinkDown'] },
      { names: ['OnPGAgentRtiChanged'], ids: ['*'] },
    ],
    routes: [],
    supervised: [],
  },
  {
    name: 'telephony events of the real product only (OnDynamicStateChanged) are telephony names',
    context: USER,
    selectors: [{ names: ['OnTelephonyState', 'OnDynamicStateChanged'] }],
    routes: [{ eventNames: ['OnTelephonyState', 'OnDynamicStateChanged'], loginNames: ['alice'] }],
    supervised: [],
  },
]

const REFUSED: Refused[] = [
  {
    name: 'a user session: the agent events of an agent it does not supervise',
    context: USER,
    selectors: [{ names: ['agent'], ids: ['franck'] }],
    message: /selectors\[0\]\.ids: a user session receives its own events only \(got 'franck'\)/,
  },
  {
    name: 'pilot events of a number that is no pilot',
    context: ADMIN,
    selectors: [{ names: ['pilot'], ids: ['3000', '30000'] }],
    message: /selectors\[0\]\.ids: no pilot '30000'/,
  },
  {
    name: 'a package plus an event name',
    context: USER,
    selectors: [{ names: ['telephony', 'OnCallCreated'] }],
    message: /selectors\[0\]\.names: .*either a package or event names/,
  },
  {
    name: 'events of two packages',
    context: USER,
    selectors: [{ names: ['OnCallCreated', 'OnUserInfoChanged'] }],
    message: /selectors\[0\]\.names: a selector names one package only \(got telephony, user\)/,
  },
  {
    name: 'two packages',
    context: USER,
    selectors: [{ names: ['telephony', 'eventSummary'] }],
    message: /selectors\[0\]\.names: a selector names one package only/,
  },
  {
    name: 'an unknown name, named (event names are exact)',
    context: USER,
    selectors: [{ names: ['telephony'] }, { names: ['oncallcreated'] }],
    message: /selectors\[1\]\.names: 'oncallcreated' is neither an event name nor an event package/,
  },
  {
    name: "a name in no package, beside the real product's packages",
    context: USER,
    selectors: [{ names: ['system'] }, { names: ['acd'], ids: ['*'] }],
    message: /selectors\[1\]\.names: 'acd' is neither an event name nor an event package/,
  },
  {
    name: 'a property of every object is no package',
    context: USER,
    selectors: [{ names: ['constructor'] }],
    message: /'constructor' is neither an event name nor an event package/,
  },
  {
    name: "events of a real product's package and of telephony",
    context: USER,
    selectors: [{ names: ['OnPbxLinkUp', 'OnCallCreated'] }],
    message: /a selector names one package only \(got system, telephony\)/,
  },
  {
    name: 'empty selectors',
    context: USER,
    selectors: [],
    message: /filter\.selectors: at least one selector/,
  },
  {
    name: 'user session naming another login',
    context: USER,
    selectors: [{ names: ['telephony'], ids: ['alice', 'bob'] }],
    message: /selectors\[0\]\.ids: a user session receives its own events only \(got 'bob'\)/,
  },
  {
    name: 'administrator without ids',
    context: ADMIN,
    selectors: [{ names: ['telephony'] }],
    message: /selectors\[0\]\.ids: an administrator session must list at least one login name/,
  },
  {
    name: 'administrator with an empty ids list',
    context: ADMIN,
    selectors: [
      { names: ['telephony'], ids: ['alice'] },
      { names: ['user'], ids: [] },
    ],
    message: /selectors\[1\]\.ids: an administrator session must list at least one login name/,
  },
  {
    name: 'administrator naming an unknown login',
    context: ADMIN,
    selectors: [{ names: ['telephony'], ids: ['alice', 'zoe'] }],
    message: /selectors\[0\]\.ids: no user 'zoe'/,
  },
  {
    name: 'administrator naming a user with neither TELEPHONY_ADVANCED nor MESSAGING',
    context: ADMIN,
    selectors: [{ names: ['telephony'], ids: ['alice', 'dave'] }],
    message: /selectors\[0\]\.ids: user 'dave' holds neither TELEPHONY_ADVANCED nor MESSAGING/,
  },
  {
    name: 'administrator: even for company-wide events the listed users are checked',
    context: ADMIN,
    selectors: [{ names: ['userManagement'], ids: ['dave'] }],
    message: /user 'dave' holds neither/,
  },
]

describe('compileFilter: accepted filters', () => {
  it.each(ACCEPTED)('$name', ({ context, selectors, routes, supervised }) => {
    const compiled = compileFilter(selectors, context)
    expect(compiled).toEqual({ ok: true, routes, supervisedUsers: new Set(supervised) })
  })

  it('a user session supervises nobody, whatever it subscribes to', () => {
    const compiled = compileFilter([{ names: ['telephony'], ids: ['alice'] }], USER)
    expect(compiled.ok && compiled.supervisedUsers.size).toBe(0)
  })
})

describe('compileFilter: company-wide events and repeated names', () => {
  it('accepts userManagement from a user session but routes none of its events there', () => {
    expect(compileFilter([{ names: ['userManagement'] }, { names: ['user'] }], USER)).toEqual({
      ok: true,
      routes: [
        { eventNames: [], loginNames: ['alice'] },
        { eventNames: ['OnUserInfoChanged', 'OnPreferencesChanged'], loginNames: ['alice'] },
      ],
      supervisedUsers: new Set(),
    })
  })

  it('routes them for an administrator', () => {
    expect(compileFilter([{ names: ['OnUserCreated'], ids: ['bob'] }], ADMIN)).toEqual({
      ok: true,
      routes: [{ eventNames: ['OnUserCreated'], loginNames: ['bob'] }],
      supervisedUsers: new Set(['bob']),
    })
  })

  it('reads a package named twice as the package', () => {
    const compiled = compileFilter([{ names: ['telephony', 'telephony'] }], USER)
    expect(compiled).toEqual({
      ok: true,
      routes: [{ eventNames: TELEPHONY, loginNames: ['alice'] }],
      supervisedUsers: new Set(),
    })
  })
})

describe('compileFilter: the C# SDK (client-dialect.ts)', () => {
  const DOTNET: FilterContext = { ...USER, dialect: 'dotnet' }

  it('reads a package name as the events the C# SDK knows', () => {
    expect(compileFilter([{ names: ['telephony'] }, { names: ['user'] }], DOTNET)).toEqual({
      ok: true,
      routes: [
        {
          eventNames: TELEPHONY.filter(
            (name) =>
              ![
                'OnCallAppeared',
                'OnCallbackRequestAdded',
                'OnDeviceMuteSuccess',
                'OnDeviceMuteFailed',
                'OnDynamicStateModified',
              ].includes(name),
          ),
          loginNames: ['alice'],
        },
        { eventNames: ['OnUserInfoChanged'], loginNames: ['alice'] },
      ],
      supervisedUsers: new Set(),
    })
  })

  it('routes an event named exactly, known to it or not', () => {
    expect(compileFilter([{ names: ['OnCallbackRequestAdded', 'OnCallCreated'] }], DOTNET)).toEqual(
      {
        ok: true,
        routes: [
          { eventNames: ['OnCallbackRequestAdded', 'OnCallCreated'], loginNames: ['alice'] },
        ],
        supervisedUsers: new Set(),
      },
    )
  })
})

describe('compileFilter: refused filters', () => {
  it.each(REFUSED)('$name', ({ context, selectors, message }) => {
    const compiled: CompiledFilter = compileFilter(selectors, context)
    expect(compiled.ok).toBe(false)
    if (compiled.ok) return
    expect(compiled.message).toMatch(message)
  })
})
