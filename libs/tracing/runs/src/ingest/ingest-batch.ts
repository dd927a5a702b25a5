import { ValidationError } from '@platform/errors';
import type { RunAttachment } from '../attachments/run-attachment';
import type { FeedbackRecord } from './feedback';
import { runOperations, type RunOperation } from './run-operation';

/** What one ingest request carries, validated: run creates and updates in request order, feedback, attachments. */
export interface IngestBatch {
  operations: RunOperation[];
  feedback: FeedbackRecord[];
  /** Files sent with runs (multipart ingestion only). */
  attachments: RunAttachment[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function list(body: Record<string, unknown>, key: 'post' | 'patch'): unknown[] {
  const value = body[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw ValidationError.at(['body', key], 'Input should be a valid list', 'list_type');
  return value;
}

/**
 * `POST /runs/batch`: `{"post": Run[], "patch": Run[]}`, either list empty or null, but one of them there: an object
 * with neither (`{"foo": 1}`, `{}`) is not a batch, and 422 as pydantic answers a missing field.
 */
export function batchFromJson(body: unknown): IngestBatch {
  if (!isObject(body)) throw ValidationError.at(['body'], 'Input should be a valid dictionary', 'dict_type');
  if (!('post' in body) && !('patch' in body)) {
    throw new ValidationError([
      { loc: ['body', 'post'], msg: 'Field required (a batch has "post" or "patch", or both)', type: 'missing' },
      { loc: ['body', 'patch'], msg: 'Field required (a batch has "post" or "patch", or both)', type: 'missing' },
    ]);
  }
  const operations: RunOperation[] = [];
  list(body, 'post').forEach((run, i) => operations.push(...runOperations('post', run, ['post', i])));
  list(body, 'patch').forEach((run, i) => operations.push(...runOperations('patch', run, ['patch', i])));
  return { operations, feedback: [], attachments: [] };
}

/** `POST /runs`: one run create (with its nested `child_runs`, if any). */
export function createFromJson(body: unknown): IngestBatch {
  return { operations: runOperations('post', body, []), feedback: [], attachments: [] };
}

/** `PATCH /runs/{id}`: one run update. */
export function updateFromJson(id: string, body: unknown): IngestBatch {
  return { operations: runOperations('patch', body, [], id), feedback: [], attachments: [] };
}
