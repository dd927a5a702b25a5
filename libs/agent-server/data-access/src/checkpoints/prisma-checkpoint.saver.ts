import type { RunnableConfig } from '@langchain/core/runnables';
import {
  BaseCheckpointSaver,
  copyCheckpoint,
  maxChannelVersion,
  TASKS,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type PendingWrite,
  type SerializerProtocol,
} from '@langchain/langgraph-checkpoint';
import type { Checkpoint as CheckpointRow, PrismaClient } from '../generated/prisma/client';
import { nextChannelVersion } from './channel-version';
import { locationConfig, readLocation, requireLocation } from './checkpoint-config';
import { selectCheckpointKeys, type CheckpointKey } from './checkpoint-keys.query';
import { dumpBlobs, dumpCheckpoint, dumpMetadata, loadChannelValues, loadMetadata } from './checkpoint-serde';
import { dumpWrites, loadWrites, sortWrites } from './checkpoint-writes';

/**
 * LangGraph checkpointer on the agent-server database (Postgres or PGlite) through its Prisma client.
 * Checkpoints, channel blobs and pending writes are stored like the official Postgres saver does.
 *
 * Channel versions are strings (see `nextChannelVersion`); LangGraph compares string and number versions
 * alike at run time, but `BaseCheckpointSaver`'s default type parameter says number, and the graph and the
 * conformance suite expect that default, hence the cast in `getNextVersion`.
 */
export class PrismaCheckpointSaver extends BaseCheckpointSaver {
  constructor(
    private readonly prisma: PrismaClient,
    serde?: SerializerProtocol,
  ) {
    super(serde);
  }

  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const location = readLocation(config);
    if (!location) return undefined;
    const { threadId, checkpointNs, checkpointId } = location;
    const key = checkpointId
      ? { threadId, checkpointNs, checkpointId }
      : (await selectCheckpointKeys(this.prisma, { threadId, checkpointNs, limit: 1 }))[0];
    if (!key) return undefined;
    const row = await this.prisma.checkpoint.findUnique({ where: { threadId_checkpointNs_checkpointId: key } });
    return row ? this.toTuple(row) : undefined;
  }

  override async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    const configurable = config.configurable ?? {};
    const keys = await selectCheckpointKeys(this.prisma, {
      threadId: configurable['thread_id'] === undefined ? undefined : String(configurable['thread_id']),
      checkpointNs: configurable['checkpoint_ns'] === undefined ? undefined : String(configurable['checkpoint_ns']),
      checkpointId: configurable['checkpoint_id'] || undefined,
      beforeId: options?.before?.configurable?.['checkpoint_id'] || undefined,
      metadata: options?.filter,
      limit: options?.limit,
    });
    for (const key of keys) {
      const row = await this.prisma.checkpoint.findUnique({ where: { threadId_checkpointNs_checkpointId: key } });
      // A row deleted between the key query and here is simply no longer listed.
      if (row) yield await this.toTuple(row);
    }
  }

  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const { threadId, checkpointNs, checkpointId: parentCheckpointId } = requireLocation(config, 'put');
    const copy = copyCheckpoint(checkpoint);
    const blobs = await dumpBlobs(this.serde, copy.channel_values, newVersions);
    const [type, bytes] = await dumpCheckpoint(this.serde, copy);
    const fields = { parentCheckpointId: parentCheckpointId ?? null, type, checkpoint: bytes, metadata: await dumpMetadata(this.serde, metadata) };
    const key = { threadId, checkpointNs, checkpointId: checkpoint.id };
    await this.prisma.$transaction([
      // (channel, version) identifies a value, so a blob that is already there is the same one.
      this.prisma.checkpointBlob.createMany({ data: blobs.map((blob) => ({ threadId, checkpointNs, ...blob })), skipDuplicates: true }),
      this.prisma.checkpoint.upsert({ where: { threadId_checkpointNs_checkpointId: key }, create: { ...key, ...fields }, update: fields }),
    ]);
    return locationConfig(threadId, checkpointNs, checkpoint.id);
  }

  override async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    const { threadId, checkpointNs, checkpointId } = requireLocation(config, 'putWrites');
    if (!checkpointId) throw new Error('putWrites: config.configurable.checkpoint_id is required');
    const rows = (await dumpWrites(this.serde, writes, taskId, taskPath)).map((row) => ({ threadId, checkpointNs, checkpointId, ...row }));
    // As the reference savers: a special write (negative idx: error, interrupt, …) replaces the previous one,
    // a regular write already stored for (task, idx) is kept, so a retried task cannot rewrite history.
    const special = rows.filter((row) => row.idx < 0);
    const regular = rows.filter((row) => row.idx >= 0);
    await this.prisma.$transaction([
      this.prisma.checkpointWrite.createMany({ data: regular, skipDuplicates: true }),
      ...special.map((row) =>
        this.prisma.checkpointWrite.upsert({
          where: { threadId_checkpointNs_checkpointId_taskId_idx: { threadId, checkpointNs, checkpointId, taskId, idx: row.idx } },
          create: row,
          update: { channel: row.channel, type: row.type, value: row.value, taskPath: row.taskPath },
        }),
      ),
    ]);
  }

  override async deleteThread(threadId: string): Promise<void> {
    await this.prisma.$transaction([
      this.prisma.checkpointWrite.deleteMany({ where: { threadId } }),
      this.prisma.checkpointBlob.deleteMany({ where: { threadId } }),
      this.prisma.checkpoint.deleteMany({ where: { threadId } }),
    ]);
  }

  override getNextVersion(current: number | undefined): number {
    return nextChannelVersion(current) as unknown as number;
  }

  private async toTuple(row: CheckpointRow): Promise<CheckpointTuple> {
    const { threadId, checkpointNs, checkpointId, parentCheckpointId } = row;
    const stored = (await this.serde.loadsTyped(row.type, row.checkpoint)) as Omit<Checkpoint, 'channel_values'>;
    const checkpoint: Checkpoint = { ...stored, channel_values: await this.loadValues(row, stored.channel_versions) };
    // Checkpoints before format v4 kept pending sends as writes on their parent.
    if (checkpoint.v < 4 && parentCheckpointId) {
      await this.migratePendingSends(checkpoint, { threadId, checkpointNs, checkpointId: parentCheckpointId });
    }
    const writes = await this.prisma.checkpointWrite.findMany({ where: { threadId, checkpointNs, checkpointId } });
    return {
      config: locationConfig(threadId, checkpointNs, checkpointId),
      checkpoint,
      metadata: await loadMetadata(this.serde, row.metadata),
      pendingWrites: await loadWrites(this.serde, writes),
      ...(parentCheckpointId ? { parentConfig: locationConfig(threadId, checkpointNs, parentCheckpointId) } : {}),
    };
  }

  private async loadValues(key: Omit<CheckpointKey, 'checkpointId'>, versions: ChannelVersions): Promise<Record<string, unknown>> {
    const wanted = Object.entries(versions ?? {}).map(([channel, version]) => ({ channel, version: String(version) }));
    if (wanted.length === 0) return {};
    const blobs = await this.prisma.checkpointBlob.findMany({
      where: { threadId: key.threadId, checkpointNs: key.checkpointNs, OR: wanted },
    });
    return loadChannelValues(this.serde, blobs);
  }

  private async migratePendingSends(checkpoint: Checkpoint, parent: CheckpointKey): Promise<void> {
    const rows = await this.prisma.checkpointWrite.findMany({ where: { ...parent, channel: TASKS } });
    const sends = await Promise.all(sortWrites(rows).map((row) => this.serde.loadsTyped(row.type, row.value)));
    const versions = Object.values(checkpoint.channel_versions);
    checkpoint.channel_values[TASKS] = sends;
    checkpoint.channel_versions[TASKS] = versions.length > 0 ? maxChannelVersion(...versions) : this.getNextVersion(undefined);
  }
}
