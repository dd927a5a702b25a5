import { InputError } from '@platform/errors';

/**
 * A filter that does not parse or does not make sense (unknown field, wrong arity, bad value). `position` is the
 * 0-based character offset in the filter text; the message names it too, e.g.
 * `Unexpected ")" at position 17: expected a value`. An {@link InputError}, so HTTP answers 400 and gRPC
 * INVALID_ARGUMENT.
 */
export class FilterSyntaxError extends InputError {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
  }
}
