import type { Response } from 'express';
import { z } from 'zod';
import { isUuid } from '@platform/ids';
import type { HttpMethod, ResponseSpec } from '@platform/openapi';

// What declared REST routes document alike.

/** `{"detail": ...}`: what every REST error answers (libs/shared/errors). */
export const errorResponse = z.object({ detail: z.string() });

export const notFound = { description: 'Not found', schema: errorResponse };

export const deleted = { 204: { description: 'Deleted' }, 404: notFound };

/** The headers of a page of search results. */
export const paginationHeaders = {
  'X-Pagination-Total': { description: 'Matching items in all', schema: z.number().int() },
  'X-Pagination-Next': { description: 'Offset of the next page, when there is one', schema: z.number().int() },
};

/** Sets `paginationHeaders` for a page of `count` items at `offset` (`limit` a page) of `total`. */
export function setPageHeaders(res: Response, page: { total: number; offset: number; limit: number; count: number }): void {
  res.set('X-Pagination-Total', String(page.total));
  if (page.offset + page.count < page.total) res.set('X-Pagination-Next', String(page.offset + page.limit));
}

/** The fixed part of a resource's route declarations: method, path, operation id (the reference server's), summary, its tag. */
export const operationsOf =
  (tag: string) =>
  (method: HttpMethod, path: string, operationId: string, summary: string) => ({ method, path, operationId, summary, tags: [tag] });

/** A `text/event-stream` answer (SseWriter): its events, as the streaming routes send them. */
export const eventStream = (headers?: ResponseSpec['headers']): ResponseSpec => ({
  description: 'Event stream',
  contentType: 'text/event-stream',
  schema: z.string().describe('Server-sent events: `event: <name>`, `data: <json>`, `id: <n>`'),
  ...(headers ? { headers } : {}),
});

/** The request header a client resuming a stream sends. */
export const lastEventIdHeader = (description: string) => ({ 'Last-Event-ID': { description, schema: z.string() } });

/** A UUID in a path (kept as given), documented as one. */
export const uuidParam = (description: string) => z.string().refine(isUuid, 'Input should be a valid UUID').meta({ format: 'uuid', description });
