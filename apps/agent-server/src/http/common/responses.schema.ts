import { z } from 'zod';

/** `{"detail": ...}`: what every REST error answers (libs/shared/errors), as declared routes document it. */
export const errorResponse = z.object({ detail: z.string() });

export const notFound = { description: 'Not found', schema: errorResponse };
