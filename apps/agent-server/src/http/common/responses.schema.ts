import { z } from 'zod';

// What declared REST routes document alike.

/** `{"detail": ...}`: what every REST error answers (libs/shared/errors). */
export const errorResponse = z.object({ detail: z.string() });

export const notFound = { description: 'Not found', schema: errorResponse };

/** The headers of a page of search results. */
export const paginationHeaders = {
  'X-Pagination-Total': { description: 'Matching items in all', schema: z.number().int() },
  'X-Pagination-Next': { description: 'Offset of the next page, when there is one', schema: z.number().int() },
};
