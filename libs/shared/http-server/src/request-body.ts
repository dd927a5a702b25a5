import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Decompress } from 'fzstd';
import { InputError } from '@platform/errors';

/** A request body that could not be read as sent (400 unless a subclass says otherwise): the client's mistake. */
export class RequestBodyError extends InputError {
  readonly status: number = 400;
}

/** A body over the route's size limit (413). */
export class PayloadTooLargeError extends RequestBodyError {
  override readonly status = 413;
}

/** A `Content-Encoding` or charset this service does not decode (415). */
export class UnsupportedEncodingError extends RequestBodyError {
  override readonly status = 415;
}

/** Counts bytes through it and fails once more than `max` passed. */
class ByteLimit extends Transform {
  private seen = 0;
  constructor(
    private readonly max: number,
    private readonly what: string,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.max) return done(new PayloadTooLargeError(`${this.what} is larger than ${this.max} bytes`));
    done(null, chunk);
  }
}

/** zstd decoding with fzstd (Node 20's zlib has none), streamed so a large body is never held compressed. */
class ZstdDecode extends Transform {
  private readonly decoder = new Decompress((data) => {
    // fzstd may reuse its output buffer: copy what is handed over.
    this.push(Buffer.from(data));
  });
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    try {
      this.decoder.push(chunk);
      done();
    } catch (err) {
      done(new RequestBodyError(`Body is not valid zstd: ${(err as Error).message}`));
    }
  }
  override _flush(done: TransformCallback): void {
    try {
      this.decoder.push(new Uint8Array(0), true);
      done();
    } catch (err) {
      done(new RequestBodyError(`Body is not valid zstd: ${(err as Error).message}`));
    }
  }
}

/** Renames a zlib failure (bad gzip or br data) as the client's error it is. */
function asInputError(decoder: Transform, encoding: string): Transform {
  const emit = decoder.emit.bind(decoder);
  decoder.emit = ((event: string, ...args: unknown[]) =>
    event === 'error' && !(args[0] instanceof InputError)
      ? emit('error', new RequestBodyError(`Body is not valid ${encoding} (Content-Encoding: ${encoding}): ${(args[0] as Error).message}`))
      : emit(event, ...args)) as typeof decoder.emit;
  return decoder;
}

function decoderFor(encoding: string): Transform | undefined {
  switch (encoding) {
    case '':
    case 'identity':
      return undefined;
    case 'gzip':
    case 'x-gzip':
      return asInputError(createGunzip(), 'gzip');
    case 'deflate':
      return asInputError(createInflate(), 'deflate');
    case 'br':
      return asInputError(createBrotliDecompress(), 'br');
    case 'zstd':
      return new ZstdDecode();
    default:
      throw new UnsupportedEncodingError(`Unsupported Content-Encoding "${encoding}" (gzip, zstd, deflate, br or none)`);
  }
}

export interface DecodeLimits {
  /** Largest body accepted, in bytes, both as sent and once decoded. */
  maxBytes: number;
}

/**
 * The request body decoded from its `Content-Encoding`, with the size limit applied before and after decoding.
 * Errors (bad compressed data, too large, cut short) are emitted by the returned stream as RequestBodyErrors. The source is piped,
 * not destroyed on failure, so the caller can still answer on its connection.
 */
export function decodeBody(source: Readable, contentEncoding: string | undefined, contentLength: string | undefined, limits: DecodeLimits): Readable {
  const declared = contentLength === undefined ? undefined : Number(contentLength);
  if (declared !== undefined && declared > limits.maxBytes) {
    throw new PayloadTooLargeError(`Request body is larger than ${limits.maxBytes} bytes`);
  }
  const decoder = decoderFor((contentEncoding ?? '').trim().toLowerCase());
  const stages: Transform[] = [new ByteLimit(limits.maxBytes, 'Request body')];
  if (decoder) stages.push(decoder, new ByteLimit(limits.maxBytes, 'Decoded request body'));
  let stream: Readable = source;
  for (const stage of stages) {
    const upstream = stream;
    // The source's own failure is the connection's (the client went away mid-body), not the server's.
    upstream.on('error', (err) => stage.destroy(upstream === source && !(err instanceof InputError) ? new RequestBodyError(`Request body ended early: ${err.message}`) : err));
    stream = upstream.pipe(stage);
  }
  return stream;
}

/**
 * The whole request body, decoded and held to the limit as `decodeBody` has it (the same errors). A body sent as is
 * (no `Content-Encoding`, the usual JSON request) is read straight from the source, with no stream stages between:
 * the piped stages and the async iteration cost more than the rest of reading a small body.
 */
export function readBody(source: Readable, contentEncoding: string | undefined, contentLength: string | undefined, limits: DecodeLimits): Promise<Buffer> {
  const encoding = (contentEncoding ?? '').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity') return readAll(decodeBody(source, contentEncoding, contentLength, limits));
  const declared = contentLength === undefined ? undefined : Number(contentLength);
  if (declared !== undefined && declared > limits.maxBytes) throw new PayloadTooLargeError(`Request body is larger than ${limits.maxBytes} bytes`);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let seen = 0;
    const done = (err?: Error) => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
      source.off('close', onClose);
      if (err) reject(err);
      else resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, seen));
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limits.maxBytes) {
        // What is left is the caller's to drain (readingBody), as after decodeBody's limit.
        source.pause();
        done(new PayloadTooLargeError(`Request body is larger than ${limits.maxBytes} bytes`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => done();
    // The source's own failure is the connection's (the client went away mid-body), not the server's.
    const onError = (err: Error) => done(err instanceof InputError ? err : new RequestBodyError(`Request body ended early: ${err.message}`));
    const onClose = () => done(new RequestBodyError('Request body ended early: the connection closed'));
    source.on('data', onData);
    source.once('end', onEnd);
    source.once('error', onError);
    source.once('close', onClose);
  });
}

/** Reads a whole decoded stream. */
export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
