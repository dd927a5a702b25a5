/**
 * A protobuf encoder compiled from a message's descriptor, for the plain objects the platform's handlers return
 * (proto-loader's shapes: field names as in the .proto, int64 as decimal strings, numbers, bigints or Longs).
 * It writes straight into one buffer, skipping protobufjs' `fromObject` copy and its Long conversions, which is
 * what a large streamed message (a page of runs) spends most of its encoding time on. It covers messages made of
 * strings (singular or repeated), bytes (Buffer or Uint8Array), bools, int64/uint64/int32/uint32 and messages of
 * the same kinds (singular or repeated); `compileMessageEncoder` returns undefined for anything else (packed
 * repeated numbers, floats, enums, maps), and callers keep protobufjs' serializer.
 */

/** The parts of proto-loader's `DescriptorProto` (JSON form) the encoder reads. */
export interface MessageDescriptor {
  name?: string;
  field: { name: string; number: number; label: string; type: string; typeName?: string }[];
}

type Writer = { buf: Buffer; pos: number };
type FieldWriter = (w: Writer, value: unknown) => void;
export type MessageEncoder = (message: object) => Buffer;

const INITIAL_BYTES = 64 * 1024;
const MAX_VARINT64 = 10;

function ensure(w: Writer, bytes: number): void {
  if (w.pos + bytes <= w.buf.length) return;
  const next = Buffer.allocUnsafe(Math.max(w.buf.length * 2, w.pos + bytes));
  w.buf.copy(next, 0, 0, w.pos);
  w.buf = next;
}

function writeVarint32(w: Writer, value: number): void {
  ensure(w, 5);
  let v = value >>> 0;
  while (v > 0x7f) {
    w.buf[w.pos++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  w.buf[w.pos++] = v;
}

function writeVarint64(w: Writer, value: bigint): void {
  ensure(w, MAX_VARINT64);
  let v = BigInt.asUintN(64, value);
  while (v > 0x7fn) {
    w.buf[w.pos++] = Number(v & 0x7fn) | 0x80;
    v >>= 7n;
  }
  w.buf[w.pos++] = Number(v);
}

function varintSize(value: number): number {
  return value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5;
}

function toBigInt(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') return BigInt(Math.trunc(value));
  // Decimal strings, and Long (whose toString is decimal).
  return BigInt(String(value));
}

function writeString(w: Writer, value: string): void {
  // Up to 42 UTF-16 units take at most 126 bytes: one length byte, known before writing.
  const bytes = value.length <= 42 ? -1 : Buffer.byteLength(value);
  if (bytes < 0) {
    ensure(w, 1 + value.length * 3);
    const at = w.pos++;
    const written = w.buf.write(value, w.pos, 'utf8');
    w.buf[at] = written;
    w.pos += written;
    return;
  }
  writeVarint32(w, bytes);
  ensure(w, bytes);
  w.pos += w.buf.write(value, w.pos, 'utf8');
}

function writeBytes(w: Writer, value: Uint8Array): void {
  writeVarint32(w, value.length);
  ensure(w, value.length);
  w.buf.set(value, w.pos);
  w.pos += value.length;
}

/** Writes `write`'s bytes length-delimited: written after room for the longest length prefix, then moved up. */
function writeDelimited(w: Writer, write: () => void): void {
  ensure(w, 5);
  const lengthAt = w.pos;
  w.pos += 5;
  write();
  const length = w.pos - lengthAt - 5;
  const prefix = varintSize(length);
  if (prefix < 5) w.buf.copyWithin(lengthAt + prefix, lengthAt + 5, w.pos);
  w.pos = lengthAt;
  writeVarint32(w, length);
  w.pos += length;
}

const WIRE_VARINT = 0;
const WIRE_DELIMITED = 2;

function scalarWriter(type: string): { wire: number; write: FieldWriter } | undefined {
  switch (type) {
    case 'TYPE_STRING':
      return { wire: WIRE_DELIMITED, write: (w, v) => writeString(w, String(v)) };
    case 'TYPE_BYTES':
      return { wire: WIRE_DELIMITED, write: (w, v) => writeBytes(w, v as Uint8Array) };
    case 'TYPE_BOOL':
      return { wire: WIRE_VARINT, write: (w, v) => writeVarint32(w, v ? 1 : 0) };
    case 'TYPE_INT64':
    case 'TYPE_UINT64':
      return { wire: WIRE_VARINT, write: (w, v) => writeVarint64(w, toBigInt(v)) };
    case 'TYPE_INT32':
      // Negative int32s take ten bytes (sign-extended), as the protobuf encoding says.
      return { wire: WIRE_VARINT, write: (w, v) => (Number(v) < 0 ? writeVarint64(w, BigInt(Number(v) | 0)) : writeVarint32(w, Number(v))) };
    case 'TYPE_UINT32':
      return { wire: WIRE_VARINT, write: (w, v) => writeVarint32(w, Number(v)) };
    default:
      return undefined;
  }
}

type MessageWriter = (w: Writer, message: Record<string, unknown>) => void;

export interface EncoderOptions {
  /**
   * Return a view of the encoder's scratch buffer instead of a copy: valid only until the next call. For a caller
   * that copies the bytes at once, as grpc-js does with a response (it frames it into a buffer of its own before
   * serializing anything else); it saves allocating and copying every message once more (a 4 MB page of runs).
   */
  view?: boolean;
}

/**
 * Compiles an encoder for `descriptor`; `resolve` finds the descriptor of a nested message type by the
 * `typeName` its field carries. Undefined when a field has a type this encoder does not handle.
 */
export function compileMessageEncoder(
  descriptor: MessageDescriptor,
  resolve: (typeName: string) => MessageDescriptor | undefined,
  options: EncoderOptions = {},
): MessageEncoder | undefined {
  const writers = new Map<MessageDescriptor, MessageWriter | null>();

  const compile = (message: MessageDescriptor): MessageWriter | undefined => {
    const known = writers.get(message);
    if (known !== undefined) return known ?? undefined;
    writers.set(message, null); // recursive types are not needed here: treated as unsupported
    const fields: { name: string; repeated: boolean; tag: number; write: FieldWriter }[] = [];
    for (const field of [...message.field].sort((a, b) => a.number - b.number)) {
      let wire: number;
      let write: FieldWriter;
      if (field.type === 'TYPE_MESSAGE') {
        const nested = field.typeName ? resolve(field.typeName) : undefined;
        const writeNested = nested && compile(nested);
        if (!writeNested) return undefined;
        wire = WIRE_DELIMITED;
        write = (w, v) => writeDelimited(w, () => writeNested(w, v as Record<string, unknown>));
      } else {
        const scalar = scalarWriter(field.type);
        // Repeated numbers and bools are packed in proto3: not written here.
        if (!scalar || (field.label === 'LABEL_REPEATED' && scalar.wire !== WIRE_DELIMITED)) return undefined;
        ({ wire, write } = scalar);
      }
      fields.push({ name: field.name, repeated: field.label === 'LABEL_REPEATED', tag: (field.number << 3) | wire, write });
    }
    const writeMessage: MessageWriter = (w, value) => {
      for (const field of fields) {
        const v = value[field.name];
        if (v === null || v === undefined) continue;
        if (field.repeated) {
          for (const item of v as unknown[]) {
            writeVarint32(w, field.tag);
            field.write(w, item);
          }
        } else {
          writeVarint32(w, field.tag);
          field.write(w, v);
        }
      }
    };
    writers.set(message, writeMessage);
    return writeMessage;
  };

  const root = compile(descriptor);
  if (!root) return undefined;
  // One scratch buffer per encoder, grown to the largest message seen; each message is copied out of it, unless
  // the caller reads the bytes before the next call (`view`).
  const w: Writer = { buf: Buffer.allocUnsafe(INITIAL_BYTES), pos: 0 };
  const view = options.view === true;
  return (message) => {
    w.pos = 0;
    root(w, message as Record<string, unknown>);
    return view ? w.buf.subarray(0, w.pos) : Buffer.from(w.buf.subarray(0, w.pos));
  };
}

/** Methods whose responses already go through a compiled encoder. */
const compiledMethods = new WeakSet<object>();

/**
 * Makes grpc-js send `method`'s responses with an encoder compiled from the response's descriptor (which
 * proto-loader puts beside the serializer, as `responseType.type`): the same bytes as protobufjs', less work. False,
 * and protobufjs' serializer kept, when the message has types the encoder does not handle.
 */
export function useCompiledResponseEncoder<Response>(
  method: { responseSerialize: (value: Response) => Buffer },
  resolve: (typeName: string) => MessageDescriptor | undefined,
): boolean {
  // Loaded definitions are shared by the process (loadProtoPackage caches them): compile once per method.
  if (compiledMethods.has(method)) return true;
  const descriptor = (method as { responseType?: { type?: MessageDescriptor } }).responseType?.type;
  // grpc-js copies what the serializer returns into the message's frame before it serializes the next one
  // (`serializeMessage` in its server call), so the encoder's scratch buffer can be handed over as it is.
  const encode = descriptor && compileMessageEncoder(descriptor, resolve, { view: true });
  if (!encode) return false;
  method.responseSerialize = encode as (value: Response) => Buffer;
  compiledMethods.add(method);
  return true;
}
