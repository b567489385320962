/**
 * The state of the call engine: calls with their connections, devices, pending timers. Data only, so that it
 * can be stored, compared and replayed; only the engine changes it (design section 2). The records are plain
 * JSON; the calls and their index are kept in persistent maps (below), read through `callOf` and `allCalls`.
 */
import type { CallCause, MediaState, OperationalState, PartyInfo } from '@openness/wire'
import { Map as ImmutableMap } from 'immutable'
import type { AcdSimulation } from '../acd/acd-simulation.js'
import type { AcdCall, AcdState, PortableAcdState } from '../acd/acd-state.js'
import type { ContactCenterDefinition, SkillNeed, Transition } from '../acd/contact-center.js'
import type { PlatformEvent } from '../events.js'
import type { AssociatedData } from './associated-data.js'
import type { Hunt, HuntingGroupDefinition, HuntingGroups } from './hunting-groups.js'

/** A party of a call: a device of a directory user, or an outside number. */
export interface Endpoint {
  /** The dialable number: the device number of a user's device, the outside number otherwise. */
  number: string
  /** Set for a device of a directory user. */
  deviceId?: string
  loginName?: string
  /**
   * Set for a service of the platform (a voice mail, a park slot, a hunting group distributing the call):
   * shown with the type SERVICE.
   */
  service?: 'VOICEMAIL' | 'PARK' | 'HUNTING_GROUP' | 'ACD_PILOT'
  /**
   * Set on a member's device while a hunting group offers it the call (operations/hunting.ts), or on an
   * agent's set while the contact center does (operations/acd-distribution.ts): the group's or the pilot's
   * number. Such a connection is the member's alone to see until it answers (call-view.ts).
   */
  offeredBy?: string
  /**
   * Set on a supervisor's device in an agent's call (operations/acd-supervision.ts): whom it supervises and how.
   * Listening and DISCRETE intrusion are the supervisor's alone to see; RESTRICTED the agent sees too; NORMAL
   * everyone (call-view.ts).
   */
  supervising?: { agent: string; mode: SupervisionMode }
}

/** How a supervisor is in an agent's call: permanent listening, or an intrusion in one of its modes. */
export type SupervisionMode = 'LISTEN' | 'NORMAL' | 'RESTRICTED' | 'DISCRETE'

/** One party's connection to a call, in the state that party sees its own side in. */
export interface Connection {
  endpoint: Endpoint
  /** Changed only through media-state-machine.ts (`moveConnection`), which checks the move against the table. */
  readonly state: MediaState
}

/** A call. */
export interface CallRecord {
  /** Not guessable from other callRefs (call-refs.ts); nothing is to be read from it, not even the order. */
  callRef: string
  /**
   * The engine's sequence number when the call was made: the order of the calls (call-index.ts,
   * `compareCalls`). Absent from calls made before callRefs were scrambled, whose callRef is that number.
   */
  serial?: number
  callUUID: string
  connections: Connection[]
  /** Whom the call was first placed to. */
  initialCalled: Endpoint
  lastRedirecting?: Endpoint
  /** How many times the users' routing diverted the call (operations/routing.ts: MAX_DIVERSIONS). */
  diversions?: number
  recordState?: 'RECORDING' | 'PAUSED'
  /** The associated data when its bytes are UTF-8 text (associated-data.ts); at most one of the two. */
  associatedData?: string
  /** The associated data's bytes in lower-case hexadecimal, when they are not UTF-8 text. */
  hexaBinaryAssociatedData?: string
  /** A make call without autoAnswer: whom to call once the calling device answers. */
  pendingCallee?: Endpoint
  /** With `pendingCallee` a pilot: what the make call's `acdCall` asked for. */
  pendingAcd?: { skills?: SkillNeed[]; supervisedTransfer?: boolean }
  /** Set while the call is parked (operations/park.ts): who parked it, from which device, on which device. */
  parked?: ParkSlot
  /** Set while a hunting group distributes the call (operations/hunting.ts). */
  hunt?: Hunt
  /** The number of the hunting group that distributed the call to the member who answered it. */
  distributedBy?: string
  /** The transaction code a user gave for the call (sendaccountinfo), shown in its CallData. */
  accountInfo?: string
  /** Set from the moment the call reaches a pilot of the contact center (operations/acd-distribution.ts). */
  acd?: AcdCall
  createdAt: number
}

/** Where a parked call waits. */
export interface ParkSlot {
  loginName: string
  /** The device the call was parked from: the park timeout recalls it there. */
  fromDeviceId: string
  /** The device the call is parked on (the parking device when no target was given). */
  onDeviceId: string
}

/** A call back request waiting for a user (operations/callbacks.ts). */
export interface StoredCallback {
  callbackId: string
  partyInfo: PartyInfo
}

/** A device of a directory user, as the engine knows it. */
export interface DeviceRecord {
  deviceId: string
  loginName: string
  state: OperationalState
  mutable: boolean
  muted: boolean
  /** A simulated device that answers by itself, a short while after it starts ringing (operations/simulation.ts). */
  autoAnswer?: boolean
}

/** A command the engine will run at a time, such as a ringing timeout. */
export interface PendingTimer {
  timerId: string
  at: number
  command: EngineCommand
}

/**
 * The calls in progress by callRef. A persistent map (Immutable.js `Map`, docs/dependencies.md): a command
 * makes a new map that shares every entry it did not change with the map it started from, which stays as it
 * was, so a command costs what the calls it touches cost, not what all calls cost (docs/performance.md). Its
 * iteration order means nothing (it is not the insertion order beyond 8 entries): read the calls with
 * `callOf` and `allCalls` (the order they were made in), never by iterating the map.
 */
export type CallMap = ImmutableMap<string, CallRecord>

/**
 * An index of the calls (call-index.ts): a login name or device id to the callRefs of the calls it has a
 * connection in, in no particular order. A persistent map like `CallMap`; the lists are plain arrays,
 * replaced (never changed) when a call joins or leaves them.
 */
export type CallIndex = ImmutableMap<string, readonly string[]>

/** Everything the engine holds. */
export interface TelephonyState {
  /** Source of deterministic identifiers. */
  sequence: number
  /**
   * The key that turns the sequence into callRefs (call-refs.ts), made once with the state and kept with it.
   * Absent only from states stored before callRefs were scrambled: the runtime gives them one at start.
   */
  callRefKey?: string
  calls: CallMap
  devices: Record<string, DeviceRecord>
  timers: PendingTimer[]
  /** The call back requests waiting for each user, by login name, oldest first. */
  callbacks?: Record<string, StoredCallback[]>
  /** The hunting groups by number (hunting-groups.ts); absent when there are none. */
  huntingGroups?: HuntingGroups
  /** The digest of the directory file's groups the engine last took (engine-groups.ts). */
  huntingProvision?: string
  /**
   * Who is logged on at which desk-sharing set (operations/desk-sharing.ts): the set's number to the user's
   * login name; absent when nobody is.
   */
  deskSharing?: DeskSharingSeats
  /** The contact center (platform/acd/acd-state.ts); absent when the platform has none. */
  acd?: AcdState
  /** The simulated floor: traffic generators and simulated agents (platform/acd/acd-simulation.ts); absent: none. */
  acdSimulation?: AcdSimulation
  /**
   * The index of the calls by user and by device (call-index.ts), derived from `calls`: kept by the
   * Transaction at the end of each command, rebuilt by `withCalls` and when a state is loaded.
   */
  callsByUser: CallIndex
  callsByDevice: CallIndex
  /**
   * The number of the batch that stored this state, when the runtime numbers its batches (cluster mode:
   * TelephonyServiceOptions.onStored), so that a replica loading the state knows from which batch of the
   * engine's change feed to follow. Absent in the embedded mode: its saves write what they wrote before.
   */
  batch?: number
  /**
   * The requests other nodes forwarded that this state's batches ran, the latest last (at most
   * ANSWERED_REQUESTS_KEPT), stored in the same transaction as their effect: a new owner that claims a request
   * its dying predecessor stored but never answered answers it from here instead of running it twice
   * (docs/cluster-engine.md, "The engine on every node"). Absent in the embedded mode, which forwards nothing.
   */
  answered?: AnsweredRequest[]
  /**
   * The events of the batches whose publication was not yet known to be done when this state was stored, the
   * batch that stored it included, oldest first (cluster mode: TelephonyServiceOptions.published). A new owner
   * publishes them again, each with its origin, before it runs anything: a log takes only the ones it lacks
   * (event-origin.ts). Absent in the embedded mode, where the events die with the process that would deliver
   * them.
   */
  unpublished?: UnpublishedBatch[]
}

/** The events a stored batch published, in order: the `index`-th has the origin `eventOrigin(batch, index)`. */
export interface UnpublishedBatch {
  batch: number
  events: PlatformEvent[]
}

/** A forwarded request the engine ran: its id, and the call it made, if it made one. */
export interface AnsweredRequest {
  requestId: string
  callRef?: string
}

/**
 * How many answered requests a state keeps: one full batch (the runtime's largest), since only the requests of
 * the batches stored just before an owner died can be unanswered; about 11 KB of the rest row at most.
 */
export const ANSWERED_REQUESTS_KEPT = 256

/** `state` with `requestId` (and the call it made) remembered among the requests answered. */
export function withAnswered(
  state: TelephonyState,
  requestId: string,
  callRef: string | undefined,
): TelephonyState {
  const kept = state.answered ?? []
  const answered = [
    ...(kept.length >= ANSWERED_REQUESTS_KEPT
      ? kept.slice(kept.length - ANSWERED_REQUESTS_KEPT + 1)
      : kept),
    { requestId, ...(callRef !== undefined && { callRef }) },
  ]
  return { ...state, answered }
}

/** Commands the engine runs (one per operation of the telephony API, plus timers and simulation). */
export type EngineCommand =
  | {
      type: 'makeCall'
      loginName: string
      deviceId: string
      callee: string
      autoAnswer: boolean
      /**
       * Shown in the call's CallData from its creation (POST /telephony/calls, standard users): at most one
       * of the two, as associated-data.ts stores them.
       */
      associatedData?: string
      hexaBinaryAssociatedData?: string
      /** A call to a pilot (`acdCall` of the make call): the skills it needs, a supervised transfer. */
      acd?: { skills?: SkillNeed[]; supervisedTransfer?: boolean }
    }
  | { type: 'answer'; loginName: string; callRef: string; deviceId?: string }
  | { type: 'release'; loginName: string; callRef: string }
  | { type: 'dropMe'; loginName: string; callRef: string }
  | { type: 'hold'; loginName: string; callRef: string; deviceId?: string }
  | { type: 'retrieve'; loginName: string; callRef: string; deviceId?: string }
  | { type: 'alternate'; loginName: string; callRef: string; deviceId?: string }
  | { type: 'transfer'; loginName: string; callRef: string; heldCallRef: string }
  | {
      type: 'blindTransfer'
      loginName: string
      callRef: string
      transferTo: string
      anonymous?: boolean
    }
  | { type: 'merge'; loginName: string; callRef: string; heldCallRef: string }
  | { type: 'addParticipant'; loginName: string; callRef: string; callee: string }
  | { type: 'dropParticipant'; loginName: string; callRef: string; participantId: string }
  | { type: 'ringingTimeout'; callRef: string; number: string }
  // Call features (operations/redirect.ts, park.ts, callbacks.ts, media.ts)
  | {
      type: 'redirect'
      loginName: string
      callRef: string
      redirectTo: string
      anonymous?: boolean
    }
  | { type: 'overflowToVoiceMail'; loginName: string; callRef: string }
  | {
      type: 'pickup'
      loginName: string
      deviceId: string
      otherCallRef: string
      otherPhoneNumber: string
      autoAnswer: boolean
    }
  | { type: 'park'; loginName: string; callRef: string; parkTo?: string }
  | { type: 'unpark'; loginName: string; deviceId: string; heldCallRef: string }
  | { type: 'parkTimeout'; callRef: string }
  | { type: 'callbackRequest'; loginName: string; callRef: string }
  | { type: 'outgoingCallback'; loginName: string; callee: string }
  | { type: 'deleteCallback'; loginName: string; callbackId: string }
  | { type: 'deleteCallbacks'; loginName: string }
  | {
      type: 'recording'
      loginName: string
      callRef: string
      action: 'start' | 'stop' | 'pause' | 'resume'
    }
  | { type: 'sendDtmf'; loginName: string; callRef: string; deviceId?: string; digits: string }
  | ({
      type: 'attachData'
      loginName: string
      callRef: string
      deviceId?: string
    } & AssociatedData)
  | { type: 'moveLeg'; loginName: string; callRef: string; legId: string; deviceId: string }
  | { type: 'mute'; loginName: string; deviceId: string; mute: boolean }
  // Outside parties, incoming calls and simulated devices (operations/simulation.ts). With `callRef` (the
  // timers) a command acts on that call only and does nothing when nothing there matches any more.
  | { type: 'incomingCall'; from: string; to: string }
  | { type: 'outsidePartyAnswers'; number: string; callRef?: string }
  | { type: 'outsidePartyRejects'; number: string; callRef?: string; cause?: RejectCause }
  | { type: 'outsidePartyHangsUp'; number: string; callRef?: string }
  | { type: 'deviceAnswers'; deviceId: string; callRef?: string }
  | { type: 'deviceHangsUp'; deviceId: string }
  | { type: 'setDevice'; deviceId: string; autoAnswer?: boolean; state?: OperationalState }
  // The directory's devices of a user, changed while the engine runs (operations/directory-devices.ts).
  | { type: 'userDevices'; loginName: string; deviceIds: string[] }
  // Hunting groups (operations/hunting.ts): their timers, their members' log-on and membership, and the
  // groups themselves (the directory file's, the control plane's).
  | { type: 'huntNoAnswer'; callRef: string; number: string }
  | { type: 'huntQueueTimeout'; callRef: string }
  | { type: 'huntingGroupLogOn'; loginName: string; logOn: boolean }
  | { type: 'huntingGroupMember'; loginName: string; group: string; join: boolean }
  | { type: 'setHuntingGroup'; group: HuntingGroupDefinition }
  | { type: 'deleteHuntingGroup'; number: string }
  | { type: 'provisionHuntingGroups'; groups: HuntingGroupDefinition[]; digest?: string }
  // A reset or restore of the platform (restored-state.ts, docs/sandbox.md).
  | { type: 'restoreState'; target: PortableEngineState }
  // The O2G additions the SDKs call (operations/reconnect.ts, intrusion.ts, interphony.ts).
  | {
      type: 'reconnect'
      loginName: string
      /** The held call, taken back. */
      callRef: string
      deviceId: string
      /** The enquiry call, left. */
      enquiryCallRef: string
    }
  | { type: 'intrusion'; loginName: string; deviceId: string }
  | { type: 'toggleInterphony'; loginName: string; deviceId: string }
  // Desk sharing (operations/desk-sharing.ts): a desk-sharing user logs on at a set, or off.
  | { type: 'deskSharingLogOn'; loginName: string; set: string }
  | { type: 'deskSharingLogOff'; loginName: string }
  // The contact center (operations/acd-*.ts): agents, pilots, their timers and the definition.
  | AcdCommand
  // The simulated floor (operations/acd-simulation.ts): traffic generators, simulated agents, their timers.
  | AcdSimulationCommand

/** The commands of the contact center. */
export type AcdCommand =
  | {
      type: 'acdLogOn'
      loginName: string
      proAcdDeviceNumber: string
      pg?: string
      headset?: boolean
    }
  | { type: 'acdLogOff'; loginName: string }
  | { type: 'acdEnter'; loginName: string; pg: string }
  | { type: 'acdExit'; loginName: string; pg: string }
  | { type: 'acdReady'; loginName: string }
  | { type: 'acdPause'; loginName: string }
  | { type: 'acdWrapUp'; loginName: string }
  | { type: 'acdWithdraw'; loginName: string; reasonIndex: number }
  | { type: 'acdSkills'; loginName: string; skills: number[]; active: boolean }
  | { type: 'acdAccountInfo'; loginName: string; callRef: string; code: string }
  | { type: 'acdAgentSnapshot'; loginName: string }
  | { type: 'acdHelp'; loginName: string; cancel: boolean; agentNumber?: string }
  | { type: 'acdNoAnswer'; callRef: string; number: string }
  | { type: 'acdWrapUpEnd'; loginName: string }
  | { type: 'acdOverflow'; callRef: string }
  | { type: 'acdCalendar' }
  | { type: 'acdPilotMode'; pilot: string; open: boolean }
  | {
      type: 'acdCalendarChange'
      pilot: string
      /** A week day (monday...) or an exception date (yyyyMMdd). */
      day: string
      /** add: append; set: replace the 1-based `index`; delete: remove it. */
      change: 'add' | 'set' | 'delete'
      index?: number
      transition?: Transition
    }
  | { type: 'acdMonitor'; pilot: string; loginName: string; start: boolean }
  | { type: 'acdTicketsStored'; ticketIds: string[] }
  | { type: 'acdListen'; loginName: string; agentNumber: string; start: boolean }
  | {
      type: 'acdIntrude'
      loginName: string
      agentNumber: string
      mode: Exclude<SupervisionMode, 'LISTEN'>
    }
  | {
      type: 'acdIntrusionMode'
      loginName: string
      mode: Exclude<SupervisionMode, 'LISTEN'> | 'STOP'
    }
  | { type: 'provisionContactCenter'; definition: ContactCenterDefinition; digest?: string }

/**
 * The commands of the simulated floor (operations/acd-simulation.ts). Times in ms. The timers (arrival, call,
 * patience, and the simulated agents' answer, release and wrap-up) act on what they name only, and do nothing
 * when it is gone.
 */
export type AcdSimulationCommand =
  | {
      type: 'acdTrafficSet'
      pilot: string
      callsPerMinute: number
      patienceMs?: number
      talkMs?: number
      /** The callers' numbers' prefix (default DEFAULT_CALLER_PREFIX). */
      from?: string
      /** Starts the pseudo-random sequence anew from this seed (0 to 2^32-1). */
      seed?: number
    }
  | { type: 'acdTrafficStop'; pilot: string }
  | { type: 'acdTrafficArrival'; pilot: string }
  | { type: 'acdTrafficCall'; pilot: string }
  | { type: 'acdTrafficPatience'; callRef: string; number: string }
  | {
      type: 'acdSimulatedAgentSet'
      loginName: string
      answerAfterMs: number
      talkMs: number
      wrapUpMs?: number
    }
  | { type: 'acdSimulatedAgentRemove'; loginName: string }
  | { type: 'acdSimulatedAnswer'; loginName: string; callRef: string }
  | { type: 'acdSimulatedRelease'; loginName: string; callRef: string }
  | { type: 'acdSimulatedWrapUp'; loginName: string }

/** The desk-sharing sets taken: a set's number to the login name of the user logged on there. */
export type DeskSharingSeats = Record<string, string>

/** Why a called party refuses a call: busy, or rejected (operations/simulation.ts). */
export type RejectCause = 'BUSY' | 'DESTINATION_NOT_OBTAINABLE'

/** The empty state for a directory's devices, with the key of its callRefs (call-refs.ts `newCallRefKey`). */
export function initialState(devices: readonly DeviceRecord[], callRefKey: string): TelephonyState {
  return {
    sequence: 0,
    callRefKey,
    calls: ImmutableMap(),
    devices: Object.fromEntries(devices.map((device) => [device.deviceId, device])),
    timers: [],
    callbacks: {},
    callsByUser: ImmutableMap(),
    callsByDevice: ImmutableMap(),
  }
}

/** The fields of the state that hold the calls: the calls and their index. */
/** The fields of a state that hold its calls and their index. */
export type CallFields = 'calls' | 'callsByUser' | 'callsByDevice'

/** The call with this callRef; undefined when there is none. */
export function callOf(state: TelephonyState, callRef: string): CallRecord | undefined {
  return state.calls.get(callRef)
}

/** How many calls are in progress. */
export function callCount(state: TelephonyState): number {
  return state.calls.size
}

/** A cause attached to a step of a command. */
export type StepCause = CallCause | undefined

/** What the engine holds, as a snapshot keeps it. */
export interface PortableEngineState {
  /** The engine's sequence then; a restore never takes it back (below). */
  sequence: number
  /** The calls in progress, oldest first. */
  calls: CallRecord[]
  devices: Record<string, DeviceRecord>
  timers: PendingTimer[]
  callbacks: Record<string, StoredCallback[]>
  /** The hunting groups; absent from snapshots taken before they existed (then none). */
  huntingGroups?: HuntingGroups
  /** The digest of the directory file's groups they were provisioned from. */
  huntingProvision?: string
  /** Who is logged on at which desk-sharing set; absent when nobody is (and from older snapshots). */
  deskSharing?: DeskSharingSeats
  /** The contact center, its agents a plain record; absent when the platform has none (and from older snapshots). */
  acd?: PortableAcdState
  /** The simulated floor; absent when there is none (and from older snapshots). */
  acdSimulation?: AcdSimulation
}
