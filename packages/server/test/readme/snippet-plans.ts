/**
 * What the test does with each shell block of README.md (readme-snippets.test.ts), keyed by the block's first
 * line without its comment (readme-blocks.ts): run it and check what the README says it prints, or skip it for
 * the reason given. A block missing here fails the test until it is added: to PLANS to run it (most blocks need
 * no more than `{ prints: [...] }`), or to SKIPPED with an honest reason. A block that needs something of the
 * machine (docker, the cluster's servers) says so with `needs` (NEEDS) and is skipped, saying why, where it is
 * missing; one that never ends by itself uses `runsOn`; one that starts services with `&`, `startsNodes`.
 *
 * The blocks run as pasted but for what their reader changes too, each listed here: the ports, on the run on
 * other ports (PORTS), and the values only the reader's own start or servers give (FILL_INS).
 */
import { CLUSTER_SERVERS, hasCommand } from './readme-checkout.js'

/** A block the test runs. */
export interface RunPlan {
  /** What the README says the block prints: texts its standard output holds, in this order. */
  readonly prints: readonly string[]
  /**
   * The block never ends by itself (a chunk channel), so the next block runs beside it, as from another
   * terminal; once that one ended, this one's output holds `thenPrints` too, in order, and it is stopped.
   */
  readonly runsOn?: { readonly thenPrints: readonly string[] }
  /**
   * The block starts services with `&` (cluster nodes): once it ended, each URL answers 200 with `saying`
   * in its body, and what it started is stopped.
   */
  readonly startsNodes?: { readonly answer: readonly string[]; readonly saying: string }
  /** What the block needs of the machine (NEEDS): it is skipped, saying why, where that is missing. */
  readonly needs?: () => string | undefined
  /** The block runs in the run on other ports only (that one always runs), for the reason given. */
  readonly onOtherPortsOnly?: string
}

/** What a block may need of the machine: each says why it is missing, or nothing when it is there. */
export const NEEDS = {
  /** The cluster mode's servers: REDIS_URL, and DATABASE_URL naming a PostgreSQL. */
  clusterServers: () =>
    CLUSTER_SERVERS === undefined
      ? 'REDIS_URL and a PostgreSQL DATABASE_URL are not set'
      : undefined,
  /** A command, e.g. `NEEDS.command('docker')`. */
  command: (name: string) => () => (hasCommand(name) ? undefined : `${name} is not installed`),
}

const CURL_LOGIN =
  "curl -s -c jar -u alice:demo-alice 'http://localhost:8080/api/rest/authenticate?version=1.0'"

/** The blocks the test runs. */
export const PLANS: Readonly<Record<string, RunPlan>> = {
  // Quick start, "A session with curl".
  [CURL_LOGIN]: {
    prints: ['"credential":', '"sessionId":', '"loginName":"alice"', '"guiLanguage":"fr"', '204'],
  },
  // "To receive events": the channel stays open; another terminal changes a preference.
  [`${CURL_LOGIN} >/dev/null`]: {
    prints: ['"eventName":"OnChannelInformation"'],
    runsOn: {
      thenPrints: ['"eventName":"OnPreferencesChanged"', '"guiLanguage":"de"', '"sequence":'],
    },
  },
  'curl -s -b jar -H \'Content-Type: application/json\' -d \'{"guiLanguage":"de"}\' http://localhost:8080/api/rest/1.0/users/alice/preferences':
    { prints: [] },
  // "A call with curl": bob's list shows the call ringing his phone; answer and hang-up each answer 204.
  "curl -s -c alice -u alice:demo-alice 'http://localhost:8080/api/rest/authenticate?version=1.0' >/dev/null":
    { prints: ['"deviceId":"1002","state":"RINGING_INCOMING"', '204', '204'] },
  // "A call from a program": the example against the started service, on its HTTPS port.
  'HTTPS_PORT=8443 npm run example': {
    prints: ['click to call on https://', 'answers call', 'OnCallRemoved', 'session closed'],
  },
  // "Several nodes": two nodes on the same PostgreSQL and Redis, each reporting haMode.
  'npm run build': {
    prints: [],
    startsNodes: {
      answer: ['http://127.0.0.1:8081/api/rest', 'http://127.0.0.1:8082/api/rest'],
      saying: '"haMode":true',
    },
    needs: NEEDS.clusterServers,
    onOtherPortsOnly:
      'its build and two more nodes take seconds: once is enough, and its own ports move there',
  },
  // "Control plane": the command line with the printed token.
  'export CONTROL_TOKEN=<the token npm start printed>': {
    prints: [
      'loginName: alice',
      'department: Sales',
      'department: Support',
      'Usage: npm run control',
    ],
  },
  'npm run control -- calls make +33612345678 +33155661001': {
    prints: [
      'callRef:',
      'state: RINGING_INCOMING\n        deviceId: "1001"\n        loginName: alice',
      'aheadSeconds: 31',
      'calls: []',
      'type: SWITCH_OVER',
    ],
  },
  'npm run control -- snapshots save clean': {
    prints: ['name: clean', 'snapshot: clean', 'durationMs:'],
  },
  // "Scenarios": the library, then two runs, each with its verdict (the exit code is 1 when one fails).
  'npm run control -- scenarios list': {
    prints: [
      '- name: click-to-call',
      'Scenario click-to-call',
      'PASSED',
      'Scenario voice-mail',
      'PASSED',
    ],
  },
  // "The journal": alice's entries, a typo's near-miss with its suggestion, an order verified.
  'npm run control -- journal --user alice --limit 5': {
    prints: [
      'request',
      'alice',
      '404',
      'near-miss POST /api/rest/1.0/telephony/calee → 404',
      'did you mean POST /api/rest/1.0/telephony/calls',
      'Matched: every pattern, in order.',
      'makeCall',
      'OnCallCreated',
    ],
  },
}

/** Why the Docker block is not run. */
const SKIPPED_DOCKER =
  "builds an image FROM node:20-slim (a registry pull) and runs it on the README's ports: no Docker daemon runs " +
  'on the machines CI uses; docker-runtime.test.ts starts the service from exactly the files the runtime stage ' +
  'copies, runs its health check and the example against it'

/** The blocks the test does not run, and why. */
export const SKIPPED: Readonly<Record<string, string>> = {
  'npm install && npm start':
    'npm install would reinstall node_modules under the running suite; npm start is how this test starts ' +
    'the service it runs the other blocks against (readme-checkout.ts); npm test is the suite itself',
  'npm test':
    'the Development commands: npm test is the suite itself, and CI (.ci/run) runs it with the typecheck and ' +
    'the lint; bench and fuzz take minutes (bench-smoke.test.ts runs the benchmarks briefly); .ci/run reinstalls',
  'docker build -t openness .': SKIPPED_DOCKER,
}

/** What a fill-in reads from the run it fills a block for. */
export interface FillContext {
  /** The control plane's token `npm start` printed. */
  readonly printedToken: string
  /** The line that points a shell at the test's PostgreSQL and Redis, or undefined where they are not named. */
  readonly clusterServers: string | undefined
}

/** A text of the README that the test replaces, as its reader does, before it runs a block. */
export interface FillIn {
  readonly text: string
  readonly by: (run: FillContext) => string
  readonly why: string
}

/** Every placeholder and value the test fills in, in one table. */
export const FILL_INS: readonly FillIn[] = [
  {
    text: '<the token npm start printed>',
    by: (run) => run.printedToken,
    why: 'generated at each start: read from what npm start printed, as its reader copies it',
  },
  {
    text: 'export DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379',
    by: (run) => run.clusterServers ?? 'false # no PostgreSQL and Redis named',
    why:
      "the servers the suite was given (DATABASE_URL, REDIS_URL), on a schema and a key prefix of the test's " +
      'own, so that no other test meets the nodes',
  },
]

/**
 * The ports the README names, each with what a reader sets to move it (the run on other ports moves them all,
 * and writes its ports where the README writes these), and the servers' ports, which stay.
 */
export const PORTS = {
  service: { HTTP_PORT: 8080, HTTPS_PORT: 8443, CONTROL_PORT: 8090 },
  clusterNodes: [8081, 8082, 8091, 8092],
  servers: [5432, 6379],
} as const

/** `text` with each README port written as `ports` maps it: in `host:port` and in `*_PORT=port`. */
export function withPorts(text: string, ports: ReadonlyMap<number, number>): string {
  const mapped = (port: string, where: string): string => {
    const to = ports.get(Number(port))
    if (to === undefined)
      throw new Error(
        `the README names port ${port} (${where}), which PORTS in snippet-plans.ts lacks`,
      )
    return String(to)
  }
  return text
    .replace(
      /\b(localhost|127\.0\.0\.1):(\d+)\b/g,
      (match, host: string, port: string) => `${host}:${mapped(port, match)}`,
    )
    .replace(/\b([A-Z]+_PORT)=(\d+)\b/g, (match, name: string, port: string) =>
      port === '0' ? match : `${name}=${mapped(port, match)}`,
    )
}
