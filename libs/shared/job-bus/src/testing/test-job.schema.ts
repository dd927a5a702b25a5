import { z } from 'zod';

/** The payload every bus test sends. */
export const testJobSchema = z.object({ n: z.number().int() });
