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
