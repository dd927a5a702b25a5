import { InputError, isPlatformError } from '@platform/errors';

// LangGraph's errors for an update the graph cannot take: unknown or ambiguous `as_node`, a value its channels
// reject, a bad command. LangChain's own coercion errors (e.g. a malformed message) carry an `lc_error_code`.
const INPUT_ERRORS = new Set(['InvalidUpdateError', 'EmptyInputError', 'GraphValueError', 'StateGraphInputError', 'EmptyChannelError']);

/** The client's mistake as an InputError (400); anything else unchanged. */
export function graphInputError(err: unknown): unknown {
  if (isPlatformError(err) || !(err instanceof Error)) return err;
  if (INPUT_ERRORS.has(err.name) || typeof (err as { lc_error_code?: unknown }).lc_error_code === 'string') {
    return new InputError(err.message, { cause: err });
  }
  return err;
}
