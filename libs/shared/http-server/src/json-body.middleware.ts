import type { Request, RequestHandler } from 'express';
import { ValidationError } from '@platform/errors';
import { bodyLimitOf, MiB } from './body-limits';
import { checkUtf8, jsonDepthOverflow, tooDeepReason } from './json-bytes';
import { UnsupportedEncodingError, readBody } from './request-body';

const JSON_TYPES = ['application/json', 'application/*+json'];

/** A JSON body that does not parse: FastAPI's `json_invalid` 422 (JSON-RPC routes answer a parse error instead). */
export class JsonBodyError extends ValidationError {
  constructor(readonly reason: string) {
    super([{ loc: ['body', 0], msg: `JSON decode error: ${reason}`, type: 'json_invalid' }]);
  }
}

const hasBody = (req: Request) => req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';

function checkCharset(req: Request): void {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new UnsupportedEncodingError(`Unsupported charset "${charset}": JSON bodies are UTF-8`);
  }
}

// As express.json() in strict mode: only an object or an array is a request body. Checked as parseJsonBytes has it
// (well-formed UTF-8, nested no deeper than MAX_JSON_DEPTH) before JSON.parse sees it.
function parseStrict(raw: Buffer): unknown {
  checkUtf8(raw);
  const text = raw.toString('utf8');
  // The first character that is not white space (`\s` is the set trim() removes), without copying the text.
  const at = text.search(/\S/);
  if (at === -1) return {};
  const first = text[at];
  if (first !== '{' && first !== '[') throw new JsonBodyError(`expected an object or an array, got ${JSON.stringify(text.trim().slice(0, 20))}`);
  const tooDeep = jsonDepthOverflow(raw);
  if (tooDeep !== -1) throw new JsonBodyError(tooDeepReason(tooDeep));
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new JsonBodyError((err as Error).message);
  }
}

/** How much of a refused body is still read (and dropped) before the connection is cut instead. */
const DRAIN_MAX_BYTES = 128 * MiB;

/** Reads the rest of a refused body, dropping it, so the answer reaches a client (or proxy) still sending it. */
function drain(req: Request): Promise<void> {
  return new Promise((resolve) => {
    let dropped = 0;
    req.unpipe();
    req.on('data', (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > DRAIN_MAX_BYTES) req.socket.destroy();
    });
    req.once('end', resolve);
    req.once('close', resolve);
    req.resume();
  });
}

/**
 * Runs a read of the request body. The limit is enforced as the body streams in, so nothing past it is ever held;
 * after a failure the rest of the body is read and dropped before the error is answered (clients and proxies
 * still sending would otherwise see a reset, not the 413), and past DRAIN_MAX_BYTES the connection is cut.
 */
export async function readingBody<T>(req: Request, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (!req.complete) await drain(req);
    throw err;
  }
}

/**
 * Parses a JSON request body into `req.body` (other content types are left unread), decoded from its
 * Content-Encoding and held to the route's body limit while it streams in.
 */
export function jsonBody(): RequestHandler {
  return async (req, res, next) => {
    // `application/json` as SDKs send it needs no media-type parsing; anything else goes through req.is.
    if (req.body !== undefined || !hasBody(req) || (req.headers['content-type'] !== 'application/json' && !req.is(JSON_TYPES))) return next();
    try {
      const raw = await readingBody(req, () => {
        checkCharset(req);
        return readBody(req, req.headers['content-encoding'], req.headers['content-length'], { maxBytes: bodyLimitOf(res) });
      });
      req.body = parseStrict(raw);
      next();
    } catch (err) {
      next(err);
    }
  };
}
