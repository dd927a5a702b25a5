import { ValidationError } from '@platform/errors';

/** A file sent with a run: `attachment.<run id>.<name>` in a multipart ingest body. */
export interface RunAttachment {
  runId: string;
  name: string;
  contentType: string;
  data: Buffer;
}

/** What is known of a stored attachment without reading its bytes. */
export interface StoredAttachmentInfo {
  runId: string;
  name: string;
  contentType: string;
  size: number;
}

// A name is only ever a key (and a download's file name): any printable text.
const hasControl = (text: string) => [...text].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const MIME = /^[\w!#$&^.+-]+\/[\w!#$&^.+-]+$/;
const MAX_NAME = 256;

/** Checks an attachment's name and content type (422 at the part's location); the type defaults to octet-stream. */
export function checkAttachment(partName: string, name: string, contentType: string | undefined): { name: string; contentType: string } {
  const fail = (msg: string) => ValidationError.at(['body', partName], msg);
  if (name.length === 0 || name.length > MAX_NAME) throw fail(`Attachment name must be 1 to ${MAX_NAME} characters`);
  if (hasControl(name) || LONE_SURROGATE.test(name)) throw fail('Attachment name must not contain control characters');
  const type = (contentType ?? '').trim().toLowerCase() || 'application/octet-stream';
  if (type.length > 255 || !MIME.test(type)) throw fail(`Attachment content type "${type.slice(0, 64)}" is not a valid MIME type`);
  return { name, contentType: type };
}
