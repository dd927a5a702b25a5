import type { Checkpoint, CheckpointMetadata, ChannelVersions, SerializerProtocol } from '@langchain/langgraph-checkpoint';
import type { Prisma } from '../generated/prisma/client';
import { storableJsonText } from '@platform/prisma';

/** A channel value as stored in `checkpoint_blobs`. */
export interface ChannelBlob {
  channel: string;
  version: string;
  type: string;
  blob: Uint8Array<ArrayBuffer> | null;
}

/** Prisma's Bytes fields take `Uint8Array<ArrayBuffer>`; serde output may sit on any ArrayBufferLike. */
export function toBytes(data: Uint8Array): Uint8Array<ArrayBuffer> {
  return data.buffer instanceof ArrayBuffer ? (data as Uint8Array<ArrayBuffer>) : new Uint8Array(data);
}

// A channel whose version changed but which holds no value (e.g. cleared) is stored as "empty".
const EMPTY = 'empty';

/** The blobs for the channels whose version changed in this checkpoint (`newVersions`). */
export async function dumpBlobs(
  serde: SerializerProtocol,
  values: Record<string, unknown>,
  newVersions: ChannelVersions,
): Promise<ChannelBlob[]> {
  return Promise.all(
    Object.entries(newVersions).map(async ([channel, version]): Promise<ChannelBlob> => {
      const value = Object.hasOwn(values, channel) ? values[channel] : undefined;
      if (value === undefined) return { channel, version: String(version), type: EMPTY, blob: null };
      const [type, blob] = await serde.dumpsTyped(value);
      return { channel, version: String(version), type, blob: toBytes(blob) };
    }),
  );
}

/** Channel values rebuilt from the blobs matching the checkpoint's `channel_versions`. */
export async function loadChannelValues(serde: SerializerProtocol, blobs: ChannelBlob[]): Promise<Record<string, unknown>> {
  const values: Record<string, unknown> = {};
  for (const { channel, type, blob } of blobs) {
    if (type === EMPTY || blob === null) continue;
    values[channel] = await serde.loadsTyped(type, blob);
  }
  return values;
}

/** The checkpoint without its channel values (those live in blobs). */
export async function dumpCheckpoint(serde: SerializerProtocol, checkpoint: Checkpoint): Promise<[string, Uint8Array<ArrayBuffer>]> {
  const { channel_values: _values, ...rest } = checkpoint;
  const [type, bytes] = await serde.dumpsTyped(rest);
  return [type, toBytes(bytes)];
}

/**
 * Metadata as JSONB: the serde's JSON form, so `list({ filter })` can match it with `@>` and loading it back
 * revives any serialised objects. Postgres jsonb cannot hold U+0000 or a lone surrogate, hence `storableJsonText`.
 */
export async function dumpMetadata(serde: SerializerProtocol, metadata: CheckpointMetadata): Promise<Prisma.InputJsonValue> {
  const [, bytes] = await serde.dumpsTyped(metadata);
  return JSON.parse(storableJsonText(new TextDecoder().decode(bytes))) as Prisma.InputJsonValue;
}

export async function loadMetadata(serde: SerializerProtocol, metadata: Prisma.JsonValue): Promise<CheckpointMetadata> {
  return (await serde.loadsTyped('json', JSON.stringify(metadata))) as CheckpointMetadata;
}
