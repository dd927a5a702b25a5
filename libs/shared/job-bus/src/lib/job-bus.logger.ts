/** One log method: structured fields first, then the message (pino's argument order). */
export type JobBusLogFn = (obj: object, msg: string) => void;

/** The logger the bus writes to; a pino logger fits as is. */
export interface JobBusLogger {
  debug: JobBusLogFn;
  info: JobBusLogFn;
  warn: JobBusLogFn;
  error: JobBusLogFn;
}

const noop: JobBusLogFn = () => undefined;

/** The default logger: drops everything. */
export const silentLogger: JobBusLogger = { debug: noop, info: noop, warn: noop, error: noop };
