import type { Logger } from '@platform/logging';

// `getLogger()` of @langchain/langgraph-sdk/logging reads the logger the server puts here (a winston logger in the
// reference). Set before the deployment's modules load: they may take the logger at import.
const SDK_LOGGER = Symbol.for('langgraph.api.sdk-logger');

/** winston's leveled call shapes, as `getLogger()` types them: (message, ...meta), (message), (info object). */
export type SdkLogMethod = (message: unknown, ...meta: unknown[]) => SdkLogger;
export type SdkLogger = Record<(typeof SDK_LEVELS)[number][0], SdkLogMethod>;

// winston's npm and cli levels onto pino's.
const SDK_LEVELS = [
  ['error', 'error'],
  ['warn', 'warn'],
  ['info', 'info'],
  ['help', 'info'],
  ['data', 'info'],
  ['prompt', 'info'],
  ['input', 'info'],
  ['http', 'debug'],
  ['verbose', 'debug'],
  ['debug', 'debug'],
  ['silly', 'trace'],
] as const;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Error);

// winston merges object meta into the line and keeps an Error's message and stack.
function toPino(message: unknown, meta: unknown[]): [Record<string, unknown>, string | undefined] {
  const fields: Record<string, unknown> = {};
  const rest: unknown[] = [];
  for (const item of meta) {
    if (item instanceof Error) fields.err = item;
    else if (isPlainObject(item)) Object.assign(fields, item);
    else if (item !== undefined) rest.push(item);
  }
  if (rest.length > 0) fields.meta = rest;
  if (message instanceof Error) return [{ ...fields, err: message }, message.message];
  if (isPlainObject(message)) {
    const { message: text, ...rest } = message;
    return [{ ...rest, ...fields }, text === undefined ? undefined : String(text)];
  }
  return [fields, typeof message === 'string' ? message : JSON.stringify(message)];
}

/**
 * The logger a deployment's code gets from `getLogger()`: winston's methods onto this server's JSON log, with the
 * graph node that logged (`langgraph_node`) when `node()` names one.
 */
export function createSdkLogger(logger: Logger, node: () => string | undefined = () => undefined): SdkLogger {
  const sdk = {} as SdkLogger;
  for (const [name, level] of SDK_LEVELS) {
    sdk[name] = (message, ...meta) => {
      if (!logger.isLevelEnabled(level)) return sdk;
      const [fields, text] = toPino(message, meta);
      const current = node();
      logger[level](current === undefined ? fields : { langgraph_node: current, ...fields }, text);
      return sdk;
    };
  }
  return sdk;
}

/** Makes `getLogger()` of @langchain/langgraph-sdk/logging answer with `logger`. */
export function registerSdkLogger(logger: SdkLogger): void {
  (globalThis as Record<symbol, unknown>)[SDK_LOGGER] = logger;
}
