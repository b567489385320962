/** The Java SDK (ALE-OPENNESS/Java-SDK) against us: its requests, replayed; what it parses, asserted (census; wire facts). */
import { clientSuite } from './run-client-suite.js'
import { JAVA_SDK } from './sdk-client.js'

clientSuite('Java SDK (ALE-OPENNESS/Java-SDK)', JAVA_SDK)
