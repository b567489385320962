/**
 * An error answered with a status other than its type's default: the specification's odd cases
 * (bad credentials 401, DELETE /sessions without a session 500, 405 on the root) stay in their routes.
 */
import { type ErrorHttpStatus, type RestErrorType, restErrorInfo } from '@openness/wire'

/** A RestErrorInfo answer with an explicit status and optional extra headers. */
export class RestError extends Error {
  override readonly name = 'RestError'

  constructor(
    readonly type: RestErrorType,
    message: string,
    readonly status?: ErrorHttpStatus,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message)
  }

  /** The body of the answer. */
  get body() {
    return restErrorInfo(
      this.type,
      this.message,
      this.status === undefined ? {} : { status: this.status },
    )
  }
}
