/** What the tracing service is asked to check before an export is accepted. */
export interface ExportQuery {
  tenantId: string;
  sessionId: string;
  filter: string | null;
  fields: string[];
  startTime: Date;
}

/**
 * Checks an export's filter (and that its tracing project exists in the workspace) with the service that owns
 * them. Throws `InputError` naming the problem for a bad filter, `NotFoundError` for an unknown project; resolves
 * when the query is valid.
 */
export interface ExportQueryValidator {
  validate(query: ExportQuery): Promise<void>;
}
