/**
 * The location service (specification, change history: `GET /api/rest/locator/services?names=VCARD` gives the
 * base URL of vCard paths). The specification does not show its answer and no SDK calls it: the shape is
 * ours (docs/vcard.md).
 */
import { type Static, Type } from 'typebox'

export const LOCATABLE_SERVICES = ['VCARD'] as const

export const LocatedService = Type.Object(
  {
    name: Type.String({ description: 'the service name, e.g. VCARD' }),
    url: Type.String({
      description: 'absolute base URL on the public side; ends with `/`: append a vcardPath',
    }),
    internalUrl: Type.String({ description: 'the same base on the private (internal) side' }),
  },
  { title: 'LocatedService' },
)
export type LocatedService = Static<typeof LocatedService>

export const LocatedServices = Type.Array(LocatedService, { title: 'LocatedServices' })
export type LocatedServices = Static<typeof LocatedServices>

export const LocatorQuery = Type.Object(
  {
    names: Type.Optional(
      Type.String({ description: 'comma-separated service names (VCARD); all when absent' }),
    ),
  },
  { title: 'LocatorQuery' },
)
