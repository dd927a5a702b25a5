import { z } from 'zod';

// Params of the A2A 1.0 JSON-RPC methods (ProtoJSON: camelCase, enum names; empty strings mean unset).

const metadata = z.record(z.string(), z.unknown());
const optionalId = z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).optional());
// Every request may name a tenant; here the workspace comes from the gateway's signed identity instead.
const tenant = z.string().optional();

const CONTENT = ['text', 'data', 'url', 'raw'] as const;

/** A part: exactly one of `text`, `data`, `url`, `raw` (base64), with optional metadata, file name and media type. */
export const v1PartSchema = z
  .object({
    text: z.string().optional(),
    data: z.unknown().optional(),
    url: z.string().min(1).optional(),
    raw: z.string().optional(),
    metadata: metadata.optional(),
    filename: z.string().optional(),
    mediaType: z.string().optional(),
  })
  .refine((part) => CONTENT.filter((key) => key in part && part[key] !== undefined).length === 1, {
    message: 'A part holds exactly one of text, data, url or raw',
  });

export const v1MessageSchema = z.object({
  messageId: z.string().min(1),
  role: z.enum(['ROLE_USER', 'ROLE_AGENT']),
  parts: z.array(v1PartSchema).min(1),
  contextId: optionalId,
  taskId: optionalId,
  metadata: metadata.optional(),
  extensions: z.array(z.string()).optional(),
  referenceTaskIds: z.array(z.string()).optional(),
});

/** `SendMessage` and `SendStreamingMessage`. */
export const v1SendMessageSchema = z.object({
  tenant,
  message: v1MessageSchema,
  configuration: z
    .object({
      acceptedOutputModes: z.array(z.string()).optional(),
      taskPushNotificationConfig: z.record(z.string(), z.unknown()).optional(),
      historyLength: z.number().int().min(0).optional(),
      returnImmediately: z.boolean().optional(),
    })
    .optional(),
  metadata: metadata.optional(),
});
export type V1SendMessageParams = z.infer<typeof v1SendMessageSchema>;

/** `GetTask`. */
export const v1GetTaskSchema = z.object({ tenant, id: z.string().min(1), historyLength: z.number().int().min(0).optional() });

/** `CancelTask` and `SubscribeToTask`. */
export const v1TaskIdSchema = z.object({ tenant, id: z.string().min(1), metadata: metadata.optional() });

export const V1_TASK_STATES = [
  'TASK_STATE_UNSPECIFIED',
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
] as const;

export const MAX_LIST_TASKS_PAGE = 100;

/** `ListTasks`: filters, a page (50 by default, 100 at most) and what each task carries. */
export const v1ListTasksSchema = z.object({
  tenant,
  contextId: optionalId,
  status: z.enum(V1_TASK_STATES).optional(),
  pageSize: z.number().int().min(1).max(MAX_LIST_TASKS_PAGE).optional(),
  pageToken: optionalId,
  historyLength: z.number().int().min(0).optional(),
  statusTimestampAfter: z.iso.datetime({ offset: true }).optional(),
  includeArtifacts: z.boolean().optional(),
});
export type V1ListTasksParams = z.infer<typeof v1ListTasksSchema>;
