/** The subset of a pino logger this lib writes to; pass a pino instance or a child of one. */
export interface GrpcLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

const noop = (): void => undefined;

/** A logger that drops everything, the default when none is given. */
export const silentLogger: GrpcLogger = { info: noop, warn: noop, error: noop, debug: noop };
