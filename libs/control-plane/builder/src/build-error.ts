/** A build that failed for a reason the user can act on; its message becomes the revision's status_message. */
export class BuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BuildError';
  }
}
