/** A mistake in how the command was called (a bad flag, a missing file): printed with no stack, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
