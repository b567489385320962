/**
 * The Numbering record (specification, "Call control": GET /numbering/canonical and /numbering/dialable).
 * The specification does not show its fields. A real client (a CRM connector) reads `dialable` from the
 * answer of /numbering/dialable; /numbering/canonical answers `canonical` by symmetry (docs/numbering.md).
 */
import { type Static, Type } from 'typebox'

export const Numbering = Type.Object(
  {
    canonical: Type.Optional(
      Type.String({
        description:
          'the number in canonical form, laid out by resultPattern (GET /numbering/canonical)',
        examples: ['+33 (1) 55661234'],
      }),
    ),
    dialable: Type.Optional(
      Type.String({
        description:
          "the digits to dial from the user's device, with the external prefix when the dialing rule needs it (GET /numbering/dialable)",
        examples: ['00155661234'],
      }),
    ),
  },
  { title: 'Numbering' },
)
export type Numbering = Static<typeof Numbering>
