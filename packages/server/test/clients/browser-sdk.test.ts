/** The browser JavaScript SDK (ALE-OPENNESS/javascript-SDK) against us: its requests, replayed; what it parses, asserted (census; wire facts). */
import { clientSuite } from './run-client-suite.js'
import { BROWSER_SDK } from './sdk-client.js'

clientSuite('browser JavaScript SDK (ALE-OPENNESS/javascript-SDK)', BROWSER_SDK)
