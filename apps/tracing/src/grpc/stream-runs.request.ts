import { isExportableRunField, RunEncoding, type ExportableRunField, type StreamRunsRequest__Output } from '@platform/contracts';
import { InputError } from '@platform/errors';
import { DEFAULT_RUN_BATCH_SIZE, MAX_RUN_BATCH_SIZE, type RunStreamEncoding, type RunStreamQuery } from '@platform/tracing-runs';
import { isUuid } from '@platform/ids';

const INT = /^-?\d+$/;
// Years 0001 to 9999: what ISO 8601 (and so the bound timestamptz text) can spell.
const MIN_US = -62_135_596_800_000_000n;
const MAX_US = 253_402_300_800_000_000n;

function uuid(value: string, name: string): string {
  if (!isUuid(value)) throw new InputError(`${name} must be a UUID`);
  return value.toLowerCase();
}

function micros(value: string | number, name: string): bigint {
  const text = String(value);
  if (!INT.test(text)) throw new InputError(`${name} must be epoch microseconds`);
  const us = BigInt(text);
  if (us < MIN_US || us > MAX_US) throw new InputError(`${name} is out of range (years 0001-9999)`);
  return us;
}

function fieldsOf(names: string[]): ExportableRunField[] {
  for (const name of names) {
    if (!isExportableRunField(name)) throw new InputError(`fields: unknown or non-exportable field "${name}"`);
  }
  return [...new Set(names as ExportableRunField[])];
}

function batchSizeOf(requested: number): number {
  if (!Number.isInteger(requested) || requested < 0) throw new InputError('batch_size must not be negative');
  // The proto lets the server send fewer than asked, so a large request is capped rather than refused.
  return requested === 0 ? DEFAULT_RUN_BATCH_SIZE : Math.min(requested, MAX_RUN_BATCH_SIZE);
}

const ENCODINGS: Readonly<Record<string, RunStreamEncoding>> = {
  [RunEncoding.RUN_ENCODING_MESSAGES]: 'messages',
  [RunEncoding.RUN_ENCODING_NDJSON]: 'ndjson',
};

function encodingOf(requested: string | number | undefined): RunStreamEncoding {
  // The loader names known values; a value this server does not know arrives as its number.
  const encoding = ENCODINGS[String(requested ?? RunEncoding.RUN_ENCODING_MESSAGES)];
  if (!encoding) throw new InputError(`encoding: unknown value ${String(requested)}`);
  return encoding;
}

/** Validates a StreamRuns request (InputError → INVALID_ARGUMENT) and turns it into the stream query. */
export function parseStreamRunsRequest(request: StreamRunsRequest__Output): RunStreamQuery {
  const tenantId = uuid(request.tenant_id ?? '', 'tenant_id');
  const sessionId = uuid(request.session_id ?? '', 'session_id');
  const startUs = micros(request.start_time ?? '', 'start_time');
  const endUs = micros(request.end_time ?? '', 'end_time');
  if (startUs >= endUs) throw new InputError('start_time must be before end_time');
  const cursor = request.cursor;
  return {
    tenantId,
    sessionId,
    startUs,
    endUs,
    filter: request.filter || undefined,
    fields: fieldsOf(request.fields ?? []),
    after: cursor ? { startTimeUs: micros(cursor.start_time, 'cursor.start_time'), id: uuid(cursor.id, 'cursor.id') } : undefined,
    batchSize: batchSizeOf(request.batch_size ?? 0),
    encoding: encodingOf(request.encoding),
  };
}
