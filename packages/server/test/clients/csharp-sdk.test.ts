/** The C# SDK (ALE-OPENNESS/CSharp-SDK) against us: its requests, replayed; what it parses, asserted (census; wire facts). */
import { clientSuite } from './run-client-suite.js'
import { CSHARP_SDK } from './sdk-client.js'

clientSuite('C# SDK (ALE-OPENNESS/CSharp-SDK)', CSHARP_SDK)
