import { dateToMicros, type RunsClient } from '@platform/contracts';
import { isPlatformError } from '@platform/errors';
import type { ExportQuery, ExportQueryValidator } from '@platform/export-exports';
import { readStream } from '@platform/grpc';
import type { Logger } from '@platform/logging';

/**
 * Checks an export's filter and project with the tracing service, which owns both (the export service cannot read
 * its tables or link its filter parser): a StreamRuns call over a one-microsecond window answers INVALID_ARGUMENT
 * for a bad filter (naming the position) and NOT_FOUND for a project not in the workspace. When tracing cannot be
 * reached the export is accepted; a worker then fails it with the same message.
 */
export function tracingQueryValidator(client: RunsClient, logger: Logger, deadlineMs = 10_000): ExportQueryValidator {
  return {
    async validate(query: ExportQuery): Promise<void> {
      const start = dateToMicros(query.startTime);
      const request = {
        tenant_id: query.tenantId,
        session_id: query.sessionId,
        start_time: start,
        end_time: (BigInt(start) + 1n).toString(),
        filter: query.filter ?? '',
        fields: query.fields,
        batch_size: 1,
      };
      try {
        for await (const batch of readStream(client, 'StreamRuns', request, { deadlineMs })) void batch;
      } catch (err) {
        if (isPlatformError(err) && (err.code === 'unavailable' || err.code === 'deadline_exceeded')) {
          logger.warn({ err, sessionId: query.sessionId }, 'tracing unreachable: export filter not validated at creation');
          return;
        }
        throw err;
      }
    },
  };
}
