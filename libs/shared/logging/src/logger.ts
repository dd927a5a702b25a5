import pino from 'pino';

/** The logger every service and lib takes: pino's (object, message) call shape. */
export type Logger = pino.Logger;

export interface LoggerOptions {
  service: string;
  level?: string;
  /** Where lines go; defaults to stdout (batched: `stdoutDestination`). Tests pass a stream to read them back. */
  destination?: pino.DestinationStream;
}

/** The longest a line waits in memory before it is written to stdout. */
export const LOG_FLUSH_INTERVAL_MS = 100;
/** Buffered lines are written once they reach this many bytes (or on the timer, or at exit). */
const LOG_BATCH_BYTES = 4096;

let stdout: pino.DestinationStream | undefined;

/**
 * Stdout, written in batches off the request path: lines (one per request, for the access log) collect in memory
 * and go out in one write per 4 KiB, or within `LOG_FLUSH_INTERVAL_MS` when fewer come; whatever is left is written
 * synchronously when the process exits (`process.exit` after SIGTERM, an uncaught error). One per process, so the
 * services of a process that runs several keep their lines whole and in order.
 */
export function stdoutDestination(): pino.DestinationStream {
  // As pino does by default: where something replaced process.stdout.write (a test capturing output), write there.
  if (process.stdout.write !== process.stdout.constructor.prototype.write) return process.stdout;
  stdout ??= pino.destination({ dest: process.stdout.fd ?? 1, sync: false, minLength: LOG_BATCH_BYTES, periodicFlush: LOG_FLUSH_INTERVAL_MS });
  return stdout;
}

/** A JSON logger with the service name on every line and secrets redacted. */
export function createLogger({ service, level = 'info', destination }: LoggerOptions): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: {
        paths: ['*.headers["x-api-key"]', '*.headers.authorization', '*.password', '*.secret', '*.api_key'],
        censor: '[redacted]',
      },
    },
    destination ?? stdoutDestination(),
  );
}

/** A logger that drops everything, for libs whose caller passes none. */
export const silentLogger: Logger = pino({ level: 'silent' });
