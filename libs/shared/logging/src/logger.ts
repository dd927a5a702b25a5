import pino from 'pino';

/** The logger every service and lib takes: pino's (object, message) call shape. */
export type Logger = pino.Logger;

export interface LoggerOptions {
  service: string;
  level?: string;
  /** Where lines go; defaults to stdout (`standardOutput`). Tests pass a stream to read them back. */
  destination?: pino.DestinationStream;
}

/** How every line is written: ISO time, the level as its label. */
const LINE_FORMAT = {
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label: string) => ({ level: label }) },
} satisfies pino.LoggerOptions;

/** A JSON logger with the service name on every line and secrets redacted. */
export function createLogger({ service, level = 'info', destination }: LoggerOptions): Logger {
  return pino(
    {
      ...LINE_FORMAT,
      level,
      base: { service },
      redact: {
        paths: ['*.headers["x-api-key"]', '*.headers.authorization', '*.password', '*.secret', '*.api_key'],
        censor: '[redacted]',
      },
    },
    destination ?? standardOutput(),
  );
}

let brokenPipeIgnored = false;

/**
 * Node's own `process.stdout` as the lines' destination, the way `console.log` writes: to a file synchronously, and to
 * a pipe (a container's log) at once while the pipe has room (queued only behind a full pipe), with no hand-off to
 * another thread. A line costs about half the CPU of pino's default destination, which hands every line to libuv's
 * thread pool (`tools/bench/gateway/access-log.ts`: ~7 against ~13 µs per line written alone), and a line written
 * to a file or a pipe with room is the kernel's when the call returns: a crash right after loses none. A reader that
 * went away (EPIPE) ends the logging, not the process, as with pino's default.
 */
function standardOutput(): pino.DestinationStream {
  if (!brokenPipeIgnored) {
    brokenPipeIgnored = true;
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
    });
  }
  return process.stdout;
}

/**
 * The same logger without the redaction pass, for a line written on every request whose fields are known to hold no
 * secret (the access log: method, path, status, duration, request id). Its lines are those `logger` writes — the
 * same destination, bindings, level (as it is now) and format — at about half the CPU: pino's redaction walks every
 * field of every line for the wildcard paths, ~10–14 µs of a ~25 µs line.
 */
export function withoutRedaction(logger: Logger): Logger {
  const destination = (logger as unknown as Record<symbol, pino.DestinationStream>)[pino.symbols.streamSym];
  return pino({ ...LINE_FORMAT, level: logger.level, base: null }, destination).child(logger.bindings());
}

/** A logger that drops everything, for libs whose caller passes none. */
export const silentLogger: Logger = pino({ level: 'silent' });
