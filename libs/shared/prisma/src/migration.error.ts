/** A migration could not be applied, or the applied history disagrees with the files on disk. */
export class MigrationError extends Error {
  constructor(
    readonly migrationName: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MigrationError';
  }
}

/** A service started on a database that lacks some of its migrations (an empty one lacks them all). */
export class NotMigratedError extends Error {
  constructor(
    readonly pending: string[],
    readonly total: number,
  ) {
    super(
      pending.length === total
        ? `the database has none of its ${total} migrations applied (empty or another service's)`
        : `the database lacks ${pending.length} of its ${total} migrations (first missing: ${pending[0]})`,
    );
    this.name = 'NotMigratedError';
  }
}
