/** The root resource: server description and supported versions (specification, "Server description"). */
import { type Static, Type } from 'typebox'

export const ProductVersion = Type.Object(
  {
    major: Type.Optional(Type.String({ description: 'release of the product' })),
    minor: Type.Optional(Type.String({ description: 'internal revision' })),
  },
  { title: 'ProductVersion' },
)

export const ServerInfo = Type.Object(
  {
    productName: Type.String({ description: 'friendly description' }),
    productType: Type.String({ description: 'short name' }),
    productVersion: Type.Optional(ProductVersion),
    haMode: Type.Optional(Type.Boolean({ description: 'true in high availability mode' })),
  },
  { title: 'ServerInfo' },
)

export const Version = Type.Object(
  {
    id: Type.String({ description: 'API version, e.g. 1.0' }),
    status: Type.String({ description: 'CURRENT for the latest version on the server' }),
    publicUrl: Type.String({ description: 'authentication URL for public access' }),
    internalUrl: Type.String({ description: 'authentication URL for private access' }),
  },
  { title: 'Version' },
)

export const RestApiDescriptor = Type.Object(
  {
    serverInfo: Type.Optional(ServerInfo),
    versions: Type.Array(Version, { minItems: 1 }),
  },
  { title: 'RestApiDescriptor' },
)
export type RestApiDescriptor = Static<typeof RestApiDescriptor>

/** The API versions this service serves. */
export const API_VERSIONS = ['1.0'] as const
export type ApiVersion = (typeof API_VERSIONS)[number]
