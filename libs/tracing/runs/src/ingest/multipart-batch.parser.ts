import type { Readable } from 'node:stream';
import Busboy, { type BusboyInstance } from '@fastify/busboy';
import { InputError, ValidationError } from '@platform/errors';
import { isUuid } from '@platform/ids';
import { checkAttachment, type RunAttachment } from '../attachments/run-attachment';
import { toFeedbackRecord } from './feedback';
import type { IngestBatch } from './ingest-batch';
import { PayloadTooLargeError, parseJsonBytes } from '@platform/http-server';
import { runOperations, type OperationKind } from './run-operation';

const RUN_PART = /^(post|patch)\.([^.]+)(?:\.([^.]+))?$/;
const FEEDBACK_PART = /^feedback\.([^.]+)$/;
const ATTACHMENT_PART = /^attachment\.([^.]+)\.(.+)$/;
const RUN_FIELDS = new Set(['inputs', 'outputs', 'events', 'extra', 'error', 'serialized']);

interface RunParts {
  kind: OperationKind;
  id: string;
  main?: Buffer;
  fields: [string, Buffer][];
}

export interface MultipartLimits {
  /** Largest single part, in bytes. */
  maxPartBytes: number;
  /** Largest attachment part, in bytes (default: `maxPartBytes`). */
  maxAttachmentBytes?: number;
}

const invalidPart = (name: string, msg: string) => ValidationError.at(['body', name], msg);

/** Collects the parts of a multipart ingest body, by run; feedback parts are parsed as they come. */
class PartCollector {
  readonly runs = new Map<string, RunParts>();
  readonly feedback: IngestBatch['feedback'] = [];
  readonly attachments: RunAttachment[] = [];

  add(name: string, value: Buffer): void {
    const run = RUN_PART.exec(name);
    if (run) return this.addRunPart(name, run[1] as OperationKind, run[2], run[3], value);
    const feedback = FEEDBACK_PART.exec(name);
    if (feedback) {
      const id = this.checkId(name, feedback[1]);
      this.feedback.push(toFeedbackRecord(parseJsonBytes(value, ['body', name], `Part ${name}`), [name], id));
      return;
    }
    throw invalidPart(name, 'Unknown part: expected post.<id>[.<field>], patch.<id>[.<field>], feedback.<id> or attachment.<id>.<name>');
  }

  /** Checks an attachment part's name and type as it begins; its bytes follow with {@link addAttachment}. */
  checkAttachment(name: string, mimeType: string | undefined): Omit<RunAttachment, 'data'> {
    const match = ATTACHMENT_PART.exec(name);
    if (!match) throw invalidPart(name, 'Only attachment.<id>.<name> parts may be files');
    return { runId: this.checkId(name, match[1]), ...checkAttachment(name, match[2], mimeType) };
  }

  addAttachment(attachment: RunAttachment): void {
    this.attachments.push(attachment);
  }

  private checkId(name: string, id: string): string {
    if (!isUuid(id)) throw invalidPart(name, `"${id.slice(0, 64)}" in the part name is not a valid UUID`);
    return id.toLowerCase();
  }

  private addRunPart(name: string, kind: OperationKind, rawId: string, field: string | undefined, value: Buffer): void {
    const id = this.checkId(name, rawId);
    if (field !== undefined && !RUN_FIELDS.has(field)) {
      throw invalidPart(name, `Unknown run field "${field}": expected one of ${[...RUN_FIELDS].join(', ')}`);
    }
    const key = `${kind}.${id}`;
    let parts = this.runs.get(key);
    if (!parts) {
      parts = { kind, id, fields: [] };
      this.runs.set(key, parts);
    }
    if (field === undefined) {
      if (parts.main !== undefined) throw invalidPart(name, 'Duplicate part');
      parts.main = value;
    } else {
      parts.fields.push([field, value]);
    }
  }

  /** The batch, once every part arrived: each run's fields are put back into its payload. */
  batch(): IngestBatch {
    const operations: IngestBatch['operations'] = [];
    for (const parts of this.runs.values()) {
      const name = `${parts.kind}.${parts.id}`;
      if (parts.main === undefined) throw invalidPart(name, `Part ${name} is missing (its field parts came without it)`);
      const payload = parseJsonBytes(parts.main, ['body', name], `Part ${name}`);
      if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
        throw ValidationError.at(['body', name], 'Input should be a valid dictionary', 'dict_type');
      }
      for (const [field, value] of parts.fields) {
        (payload as Record<string, unknown>)[field] = parseJsonBytes(value, ['body', `${name}.${field}`], `Part ${name}.${field}`);
      }
      operations.push(...runOperations(parts.kind, payload, [name], parts.id));
    }
    return { operations, feedback: this.feedback, attachments: this.attachments };
  }
}

/** Whether a part is a file (an attachment's bytes), as its name, type and file name say. */
const isFilePart = (name: string, type: string | undefined, fileName: string | undefined) =>
  // Attachments are bytes whatever their type (the SDK sends `image/png` parts without a file name); other
  // octet-stream or named parts are files too, and refused.
  ATTACHMENT_PART.test(name) || type === 'application/octet-stream' || fileName !== undefined;

/**
 * Parses a `multipart/form-data` ingest body as it streams in (no Content-Length needed): `post.<id>`/`patch.<id>`
 * run payloads with their `.inputs|.outputs|.events|.extra|.error|.serialized` parts, `feedback.<id>`, and
 * `attachment.<id>.<name>` parts (raw bytes, with their content type). Every part is read as bytes, so JSON parts
 * are checked as UTF-8 and for nesting by `parseJsonBytes` (the parser's own text decoding would replace bad bytes).
 */
export function parseMultipartBatch(body: Readable, contentType: string | undefined, limits: MultipartLimits): Promise<IngestBatch> {
  return new Promise<IngestBatch>((resolve, reject) => {
    let parser: BusboyInstance;
    const maxAttachmentBytes = limits.maxAttachmentBytes ?? limits.maxPartBytes;
    try {
      parser = Busboy({
        headers: { 'content-type': contentType ?? '' },
        limits: { fileSize: Math.max(limits.maxPartBytes, maxAttachmentBytes), fieldNameSize: 1024 },
        isPartAFile: () => true,
      });
    } catch (err) {
      reject(new InputError(`Expected a multipart/form-data body with a boundary: ${(err as Error).message}`));
      return;
    }
    const collector = new PartCollector();
    let failed = false;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      body.unpipe(parser);
      reject(err instanceof InputError || err instanceof ValidationError ? err : new InputError(`Malformed multipart body: ${(err as Error).message}`));
    };
    // The parser finishes only after every part's stream has ended.
    parser.on('file', (name, stream, fileName, _encoding, mimeType) => {
      const file = isFilePart(name, mimeType, fileName);
      const maxBytes = file ? maxAttachmentBytes : limits.maxPartBytes;
      const tooLarge = () => new PayloadTooLargeError(file ? `Attachment ${name} is larger than ${maxBytes} bytes` : `Part ${name} is larger than ${maxBytes} bytes`);
      // A part cut short (the body ended inside it) fails its stream.
      stream.on('error', fail);
      let attachment: Omit<RunAttachment, 'data'> | undefined;
      try {
        if (!failed && file) attachment = collector.checkAttachment(name, mimeType);
      } catch (err) {
        fail(err);
      }
      if (failed) return stream.resume();
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('limit', () => fail(tooLarge()));
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) return fail(tooLarge());
        if (!failed) chunks.push(chunk);
      });
      stream.on('end', () => {
        if (failed) return;
        const data = Buffer.concat(chunks, size);
        try {
          if (attachment) collector.addAttachment({ ...attachment, data });
          else collector.add(name, data);
        } catch (err) {
          fail(err);
        }
      });
    });
    parser.on('error', fail);
    body.on('error', fail);
    parser.on('finish', () => {
      if (failed) return;
      try {
        resolve(collector.batch());
      } catch (err) {
        fail(err);
      }
    });
    body.pipe(parser);
  });
}
