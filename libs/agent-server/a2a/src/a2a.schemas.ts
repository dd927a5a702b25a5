import { z } from 'zod';

const metadata = z.record(z.string(), z.unknown());

const partSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string(), metadata: metadata.optional() }),
  z.object({ kind: z.literal('data'), data: metadata, metadata: metadata.optional() }),
  z.object({
    kind: z.literal('file'),
    file: z.union([
      z.object({ uri: z.string(), mimeType: z.string().optional(), name: z.string().optional() }),
      z.object({ bytes: z.string(), mimeType: z.string().optional(), name: z.string().optional() }),
    ]),
    metadata: metadata.optional(),
  }),
]);

/** `message/send` and `message/stream` params (A2A 0.3.0 `MessageSendParams`). */
export const messageSendParamsSchema = z.object({
  message: z.object({
    kind: z.literal('message').optional(),
    messageId: z.string().min(1),
    role: z.enum(['user', 'agent']),
    parts: z.array(partSchema).min(1),
    contextId: z.string().min(1).optional(),
    taskId: z.string().min(1).optional(),
    referenceTaskIds: z.array(z.string()).optional(),
    metadata: metadata.optional(),
  }),
  configuration: z
    .object({
      acceptedOutputModes: z.array(z.string()).optional(),
      blocking: z.boolean().optional(),
      historyLength: z.number().int().min(0).optional(),
    })
    .optional(),
  metadata: metadata.optional(),
});
export type MessageSendParams = z.infer<typeof messageSendParamsSchema>;

/** `tasks/get` params (`TaskQueryParams`). */
export const taskQueryParamsSchema = z.object({ id: z.string().min(1), historyLength: z.number().int().min(0).optional(), metadata: metadata.optional() });

/** `tasks/cancel` and `tasks/resubscribe` params (`TaskIdParams`). */
export const taskIdParamsSchema = z.object({ id: z.string().min(1), metadata: metadata.optional() });
