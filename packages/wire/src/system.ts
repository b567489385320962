/**
 * The maintenance service's system status (wire facts 8.6; not in the specification: the real product's
 * `GET <maintenance>/status`, which the Java SDK requests as `<base>/system/status`), as the Node, Java, C#
 * and browser SDKs read it. docs/system-status.md says where each value comes from.
 */
import { type Static, Type } from 'typebox'
import { enumeration } from './enumeration.js'

export const ServerAddress = Type.Object(
  { fqdn: Type.Optional(Type.String()), ip: Type.Optional(Type.String()) },
  { title: 'ServerAddress' },
)

export const ServiceStatus = Type.Object(
  { name: Type.String(), status: Type.String(), mode: Type.Optional(Type.String()) },
  { title: 'ServiceStatus' },
)

export const SystemServiceStatus = Type.Object(
  { services: Type.Array(ServiceStatus) },
  { title: 'SystemServiceStatus' },
)

export const CTI_LINK_STATES = ['CONNECTED_MAIN', 'CONNECTED_SECONDARY', 'DISCONNECTED'] as const
export const CtiLinkState = enumeration(CTI_LINK_STATES, { title: 'CtiLinkState' })
export type CtiLinkState = Static<typeof CtiLinkState>

export const PbxStatus = Type.Object(
  {
    name: Type.String(),
    /** An int for every SDK (C# and Java declare int); left out when the node id is not a number. */
    nodeId: Type.Optional(Type.Integer()),
    mainAddress: ServerAddress,
    version: Type.String(),
    connected: Type.Boolean(),
    loaded: Type.Boolean(),
    ctiLinkState: CtiLinkState,
    secured: Type.Boolean(),
    monitoredUserNumber: Type.Integer(),
    lmsConnectionStatus: Type.Boolean(),
  },
  { title: 'PbxStatus' },
)

export const License = Type.Object(
  {
    name: Type.String(),
    total: Type.Integer(),
    currentUsed: Type.Integer(),
    /** The product's spelling, e.g. `28-feb-2026` (the Node SDK's test); absent: no expiry. */
    expiration: Type.Optional(Type.String()),
  },
  { title: 'License' },
)

export const LicenseStatus = Type.Object(
  {
    type: enumeration(['FLEXLM', 'LMS'] as const, { title: 'LicenseType' }),
    context: Type.String(),
    currentServer: Type.String(),
    status: Type.String(),
    statusMessage: Type.String(),
    lics: Type.Array(License),
  },
  { title: 'LicenseStatus' },
)

export const SystemStatus = Type.Object(
  {
    logicalAddress: ServerAddress,
    startDate: Type.String({ format: 'date-time' }),
    ha: Type.Boolean(),
    primary: Type.String(),
    primaryVersion: Type.String(),
    primaryServicesStatus: SystemServiceStatus,
    pbxs: Type.Array(PbxStatus),
    license: LicenseStatus,
    configurationType: enumeration(['PBX_MANAGEMENT', 'FULL_SERVICES'] as const, {
      title: 'ConfigurationType',
    }),
    subscriberFilter: enumeration(['ALL', 'NONE'] as const, { title: 'SubscriberFilter' }),
  },
  { title: 'SystemStatus' },
)
export type SystemStatus = Static<typeof SystemStatus>

/** `GET /system/status?lic=<name>` (the C# SDK's IsLicenseExist): 2xx when the platform has the license. */
export const SystemStatusQuery = Type.Object(
  {
    lic: Type.Optional(
      Type.String({ description: 'a license name: 404 when the platform has none by that name' }),
    ),
  },
  { title: 'SystemStatusQuery' },
)
