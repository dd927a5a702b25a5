import type { CronRepository } from './crons.repository';

/** Finds an assistant by id, or a graph id's system assistant; unknown → NotFoundError (the assistants repository). */
export interface CronAssistantResolver {
  resolve(assistantIdOrGraphId: string): Promise<{ assistant_id: string }>;
}

export interface CronsDeps {
  crons: CronRepository;
  assistants: CronAssistantResolver;
  /** The clock next runs are computed from (tests pin it). */
  now?: () => Date;
}
