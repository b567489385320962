/**
 * The service's logger (docs/operations.md, "Logs"): pino, writing JSON lines (one object a line, for a log
 * collector), or pretty lines for a developer's terminal (`LOG_FORMAT=pretty`, the default on a TTY). Pretty
 * lines are made by pino-pretty in this thread, written synchronously: no transport, hence no worker thread
 * and no worker file to find next to the bundle (docs/dependencies.md).
 */
import pino, { type DestinationStream, type Logger } from 'pino'
import pinoPretty from 'pino-pretty'

/** How log lines are written: JSON lines, or pretty lines for a terminal. */
export const LOG_FORMATS = ['json', 'pretty'] as const
export type LogFormat = (typeof LOG_FORMATS)[number]

/** What the logger is made of. */
export interface ServiceLoggerOptions {
  level: string
  /** LOG_FORMAT; when absent, pretty on a terminal and JSON otherwise. */
  format?: LogFormat
  /** Where lines go (tests); the process's stdout by default. */
  destination?: DestinationStream & NodeJS.WritableStream
  /** Whether that is a terminal: the default format, and colours in pretty lines. Stdout's by default. */
  isTTY?: boolean
}

/** The format of the lines: the one asked for, else pretty on a terminal and JSON elsewhere. */
export function logFormatFor(format: LogFormat | undefined, isTTY: boolean): LogFormat {
  return format ?? (isTTY ? 'pretty' : 'json')
}

/** The service's logger. */
export function createServiceLogger(options: ServiceLoggerOptions): Logger {
  const isTTY = options.isTTY ?? process.stdout.isTTY === true
  if (logFormatFor(options.format, isTTY) === 'json')
    return options.destination === undefined
      ? pino({ level: options.level })
      : pino({ level: options.level }, options.destination)
  const pretty = pinoPretty({
    sync: true,
    colorize: isTTY,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    singleLine: true,
    ...(options.destination !== undefined && { destination: options.destination }),
  })
  return pino({ level: options.level }, pretty)
}
