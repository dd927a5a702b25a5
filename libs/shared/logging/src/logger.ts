import pino from 'pino';

/** The logger every service and lib takes: pino's (object, message) call shape. */
export type Logger = pino.Logger;

export interface LoggerOptions {
  service: string;
  level?: string;
  /** Where lines go; defaults to stdout. Tests pass a stream to read them back. */
  destination?: pino.DestinationStream;
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
    destination,
  );
}

/** A logger that drops everything, for libs whose caller passes none. */
export const silentLogger: Logger = pino({ level: 'silent' });
