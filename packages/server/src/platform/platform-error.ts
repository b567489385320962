/** The one error the platform throws: a specification error type and a message, never an HTTP status. */
import type { RestErrorType, RoutingErrorInfo } from '@openness/wire'

/** A failure of a platform command, named by one of the specification's error types. */
export class PlatformError extends Error {
  override readonly name = 'PlatformError'

  /**
   * @param type the specification's error type (docs/errors.md)
   * @param message the helpMessage shown to the client: says what was wrong and, for input, which field
   * @param innerMessage diagnostic text for an administrator, only where it helps one
   * @param routing the details of a refused routing request (RestErrorInfo.routing, wire facts 9)
   */
  constructor(
    readonly type: RestErrorType,
    message: string,
    readonly innerMessage?: string,
    readonly routing?: RoutingErrorInfo,
  ) {
    super(message)
  }
}
