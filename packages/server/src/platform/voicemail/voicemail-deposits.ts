/**
 * Messages left by callers (docs/voicemail.md, "Deposit"): follows the call engine's commits and, when a
 * call that a user's routing or call features sent to that user's voice mail ends there (the caller hangs
 * up, or the maximum length is reached and the voice mail hangs up), leaves a message in the user's mailbox:
 * its duration the time the caller spent with the voice mail, on the platform's clock; from, the caller.
 */
import type { PartyInfo } from '@openness/wire'
import type { Clock, Timer } from '../events.js'
import { partyInfo } from '../telephony/call-view.js'
import type { TelephonyDirectory } from '../telephony/telephony-directory.js'
import type { Committed } from '../telephony/telephony-service.js'
import type { CallRecord, Connection, EngineCommand } from '../telephony/telephony-state.js'
import { DEFAULT_MAX_MESSAGE_SECONDS } from './voice-message.js'
import type { VoicemailService } from './voicemail-service.js'

/** A call being recorded in a mailbox. */
interface Recording {
  mailbox: string
  from: PartyInfo
  startedAt: number
  timer: Timer
}

export interface DepositOptions {
  voicemail: VoicemailService
  directory: TelephonyDirectory
  clock: Clock
  /** Runs an engine command (the voice mail hanging up at the maximum length). */
  execute: (command: EngineCommand) => Promise<unknown>
  maxMessageSeconds?: number
  /** Told of a message that could not be stored, or a maximum length that could not end its call. */
  onError?: (error: unknown, what: string) => void
}

export class VoicemailDeposits {
  readonly #options: DepositOptions
  readonly #maxSeconds: number
  /** The calls in a mailbox now, by callRef (ephemeral: a restart ends them without a message). */
  readonly #recording = new Map<string, Recording>()
  #tail: Promise<unknown> = Promise.resolve()

  constructor(options: DepositOptions) {
    this.#options = options
    this.#maxSeconds = options.maxMessageSeconds ?? DEFAULT_MAX_MESSAGE_SECONDS
  }

  /** After each command of the engine: starts recording the calls a voice mail answered, ends the others. */
  engineCommitted({ after, changes, restored }: Committed): void {
    // A reset or restore: the messages being left were never left; those of the calls restored start anew.
    if (restored) this.#abandonAll()
    // The calls the command changed, not those its events name: a call an outside caller sent straight to a
    // voice mail (an immediate forward) tells no user anything.
    const callRefs = new Set(this.#recording.keys())
    for (const callRef of changes.changedCallRefs) callRefs.add(callRef)
    for (const callRef of callRefs) {
      const call = after.calls.get(callRef)
      const caller = call && callerWithVoicemail(call)
      const recording = this.#recording.get(callRef)
      if (recording === undefined) {
        if (call !== undefined && caller !== undefined) this.#start(call, caller)
      } else if (caller === undefined) this.#finish(callRef, recording)
    }
  }

  /** Resolves once every message asked so far is stored (tests). */
  async idle(): Promise<void> {
    await this.#tail
  }

  #start(call: CallRecord, caller: Connection): void {
    const mailbox = call.lastRedirecting?.loginName ?? call.initialCalled.loginName
    // A user who dials the voice-mail number consults their own mailbox: no message.
    if (mailbox === undefined || mailbox === caller.endpoint.loginName) return
    if (!this.#options.voicemail.hosts(mailbox)) return
    const { callRef } = call
    const endpoint = caller.endpoint
    const timer = this.#options.clock.setTimer(this.#maxSeconds * 1000, () => {
      const command: EngineCommand =
        endpoint.loginName !== undefined
          ? { type: 'release', loginName: endpoint.loginName, callRef }
          : { type: 'outsidePartyHangsUp', number: endpoint.number, callRef }
      this.#options
        .execute(command)
        .catch((error: unknown) =>
          this.#options.onError?.(
            error,
            `the voice mail of ${mailbox} could not end call ${callRef}`,
          ),
        )
    })
    this.#recording.set(callRef, {
      mailbox,
      from: partyInfo(endpoint, this.#options.directory),
      startedAt: this.#options.clock.now(),
      timer,
    })
  }

  /** Forgets every message being left, storing none. */
  #abandonAll(): void {
    for (const recording of this.#recording.values()) recording.timer.cancel()
    this.#recording.clear()
  }

  #finish(callRef: string, recording: Recording): void {
    this.#recording.delete(callRef)
    recording.timer.cancel()
    const elapsed = (this.#options.clock.now() - recording.startedAt) / 1000
    const duration = Math.min(this.#maxSeconds, Math.round(elapsed))
    const deposit = this.#options.voicemail.deposit({
      loginName: recording.mailbox,
      from: recording.from,
      duration,
    })
    const stored = deposit.catch((error: unknown) =>
      this.#options.onError?.(
        error,
        `a voice message of ${duration} s for ${recording.mailbox} was lost (call ${callRef})`,
      ),
    )
    this.#tail = Promise.all([this.#tail, stored])
  }
}

/** The caller of a call answered by a voice mail, while both are in it (ACTIVE). */
function callerWithVoicemail(call: CallRecord): Connection | undefined {
  const voicemail = call.connections.some(
    (connection) => connection.endpoint.service === 'VOICEMAIL' && connection.state === 'ACTIVE',
  )
  if (!voicemail) return undefined
  return call.connections.find(
    (connection) => connection.endpoint.service === undefined && connection.state === 'ACTIVE',
  )
}
