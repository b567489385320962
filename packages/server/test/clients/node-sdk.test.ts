/** The Node SDK (ALE-OPENNESS/o2g-node-sdk) against us: its requests, replayed; what it parses, asserted (census; wire facts). */
import { clientSuite } from './run-client-suite.js'
import { NODE_SDK } from './sdk-client.js'

clientSuite('Node SDK (ALE-OPENNESS/o2g-node-sdk)', NODE_SDK)
