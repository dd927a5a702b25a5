import { ConflictError, NotFoundError } from '@platform/errors';
import { isUuid } from '@platform/ids';
import type { AccessFilter } from '../access-filter';
import { accessFilterSql, binderOf } from '../access-filter.sql';
import type { PrismaClient } from '../generated/prisma/client';
import type { Assistant, AssistantChanges, AssistantFilter, AssistantQuery, AssistantVersion, NewAssistant, VersionQuery } from './assistant';
import { ASSISTANT_COLUMNS, VERSION_COLUMNS, toAssistant, toAssistantVersion, type AssistantRow } from './assistant-row';
import { countAssistantsSql, searchAssistantsSql } from './assistant-search.query';
import { sameJson } from './same-json';
import { systemAssistantId } from './system-assistant-id';

/**
 * Assistants and their versions in the agent-server database. `visible` is the caller's filter from the deployment's
 * auth (on the assistant's metadata): an assistant it hides is not there.
 */
export interface AssistantRepository {
  find(assistantId: string, visible?: AccessFilter): Promise<Assistant | null>;
  /** The assistant, or NotFoundError `Assistant not found`. */
  get(assistantId: string, visible?: AccessFilter): Promise<Assistant>;
  /** An assistant by id, or a graph id's system assistant; NotFoundError `Assistant not found`. */
  resolve(assistantIdOrGraphId: string, visible?: AccessFilter): Promise<Assistant>;
  /**
   * Creates the assistant with its version 1, unless its id is taken (then `created` is false and nothing changes).
   * An id taken by an assistant `visible` hides is a ConflictError.
   */
  insert(input: NewAssistant, visible?: AccessFilter): Promise<{ assistant: Assistant; created: boolean }>;
  search(query: AssistantQuery, visible?: AccessFilter): Promise<Assistant[]>;
  count(filter: AssistantFilter, visible?: AccessFilter): Promise<number>;
  /**
   * Saves the changes as a new version (highest version + 1) and makes it current. With `skipIfUnchanged`, a
   * change that changes nothing leaves the assistant as it is.
   */
  update(assistantId: string, changes: AssistantChanges, options?: { skipIfUnchanged?: boolean }): Promise<Assistant>;
  /** Deletes the assistant and its versions; NotFoundError if missing. */
  delete(assistantId: string): Promise<void>;
  /** Versions newest first, optionally only those whose metadata contains `metadata` (and `visible` lets through). */
  versions(assistantId: string, query: VersionQuery, visible?: AccessFilter): Promise<AssistantVersion[]>;
  /** Makes a saved version current again; NotFoundError for an unknown assistant or version. */
  setLatest(assistantId: string, version: number): Promise<Assistant>;
}

type Tx = Pick<PrismaClient, '$queryRawUnsafe' | '$executeRawUnsafe'>;

// Worded as LangGraph's API server words it (the SDK shows it as the error's message).
const notFound = () => new NotFoundError('Assistant not found');

// ` AND <the row passes the caller's filter>` on `table`'s metadata, or nothing without a filter.
const visibleSql = (visible: AccessFilter | undefined, table: 'a' | 'v', params: unknown[]) => {
  const condition = accessFilterSql(visible, `${table}.metadata`, binderOf(params));
  return condition ? ` AND ${condition}` : '';
};
const json = (value: unknown) => JSON.stringify(value ?? {});

const SAVE_VERSION = `INSERT INTO assistant_versions (assistant_id, version, graph_id, name, description, config, context, metadata)
  VALUES ($1::uuid, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8::jsonb)`;

async function lockAssistant(tx: Tx, assistantId: string): Promise<Assistant | null> {
  const rows = await tx.$queryRawUnsafe<AssistantRow[]>(`SELECT ${ASSISTANT_COLUMNS} FROM assistants a WHERE a.assistant_id = $1::uuid FOR UPDATE`, assistantId);
  return rows[0] ? toAssistant(rows[0]) : null;
}

function applyChanges(current: Assistant, changes: AssistantChanges): Omit<AssistantVersion, 'assistant_id' | 'version' | 'created_at'> {
  return {
    graph_id: changes.graph_id ?? current.graph_id,
    name: changes.name ?? current.name,
    description: changes.description === undefined ? current.description : changes.description,
    config: changes.config ?? current.config,
    context: changes.context ?? current.context,
    metadata: changes.metadata ? { ...current.metadata, ...changes.metadata } : current.metadata,
  };
}

export function createAssistantRepository(prisma: PrismaClient): AssistantRepository {
  const find = async (assistantId: string, visible?: AccessFilter): Promise<Assistant | null> => {
    if (!isUuid(assistantId)) return null;
    const params: unknown[] = [assistantId];
    const rows = await prisma.$queryRawUnsafe<AssistantRow[]>(
      `SELECT ${ASSISTANT_COLUMNS} FROM assistants a WHERE a.assistant_id = $1::uuid${visibleSql(visible, 'a', params)}`,
      ...params,
    );
    return rows[0] ? toAssistant(rows[0]) : null;
  };

  const get = async (assistantId: string, visible?: AccessFilter): Promise<Assistant> => {
    const assistant = await find(assistantId, visible);
    if (!assistant) throw notFound();
    return assistant;
  };

  return {
    find,
    get,

    async resolve(assistantIdOrGraphId, visible) {
      const assistant = (await find(assistantIdOrGraphId, visible)) ?? (await find(systemAssistantId(assistantIdOrGraphId), visible));
      if (!assistant) throw notFound();
      return assistant;
    },

    async insert(input, visible) {
      // One statement: the assistant and its version 1 appear together, and a taken id inserts neither.
      const inserted = await prisma.$executeRawUnsafe(
        `WITH created AS (
           INSERT INTO assistants (assistant_id, graph_id, name, description, config, context, metadata, version)
           VALUES ($1::uuid, $2, $3, $4, $5::jsonb, $6::jsonb, $7::jsonb, 1)
           ON CONFLICT (assistant_id) DO NOTHING
           RETURNING assistant_id, graph_id, name, description, config, context, metadata, created_at)
         INSERT INTO assistant_versions (assistant_id, version, graph_id, name, description, config, context, metadata, created_at)
         SELECT assistant_id, 1, graph_id, name, description, config, context, metadata, created_at FROM created`,
        input.assistant_id,
        input.graph_id,
        input.name,
        input.description ?? null,
        json(input.config),
        json(input.context),
        json(input.metadata),
      );
      // Someone else's assistant under that id is not theirs to see.
      const assistant = inserted > 0 ? await get(input.assistant_id) : await find(input.assistant_id, visible);
      if (!assistant) throw new ConflictError('Assistant already exists');
      return { assistant, created: inserted > 0 };
    },

    async search(query, visible) {
      const { sql, params } = searchAssistantsSql(query, visible);
      const rows = await prisma.$queryRawUnsafe<AssistantRow[]>(sql, ...params);
      return rows.map(toAssistant);
    },

    async count(filter, visible) {
      const { sql, params } = countAssistantsSql(filter, visible);
      const [row] = await prisma.$queryRawUnsafe<{ count: number }[]>(sql, ...params);
      return Number(row?.count ?? 0);
    },

    async update(assistantId, changes, options = {}) {
      if (!isUuid(assistantId)) throw notFound();
      // The row lock orders concurrent updates, so each gets the next version number.
      return prisma.$transaction(async (tx) => {
        const current = await lockAssistant(tx, assistantId);
        if (!current) throw notFound();
        const next = applyChanges(current, changes);
        const { assistant_id: _id, version: _version, created_at: _created, updated_at: _updated, ...before } = current;
        if (options.skipIfUnchanged && sameJson(before, next)) return current;
        const [{ version }] = await tx.$queryRawUnsafe<{ version: number }[]>(
          'SELECT COALESCE(max(version), 0) + 1 AS version FROM assistant_versions WHERE assistant_id = $1::uuid',
          assistantId,
        );
        const values = [next.graph_id, next.name, next.description, json(next.config), json(next.context), json(next.metadata)];
        await tx.$executeRawUnsafe(SAVE_VERSION, assistantId, Number(version), ...values);
        await tx.$executeRawUnsafe(
          `UPDATE assistants SET graph_id = $3, name = $4, description = $5, config = $6::jsonb, context = $7::jsonb, metadata = $8::jsonb,
             version = $2, updated_at = now() WHERE assistant_id = $1::uuid`,
          assistantId,
          Number(version),
          ...values,
        );
        return (await lockAssistant(tx, assistantId)) as Assistant;
      });
    },

    async delete(assistantId) {
      if (!isUuid(assistantId)) throw notFound();
      const deleted = await prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe('DELETE FROM assistant_versions WHERE assistant_id = $1::uuid', assistantId);
        return tx.$executeRawUnsafe('DELETE FROM assistants WHERE assistant_id = $1::uuid', assistantId);
      });
      if (deleted === 0) throw notFound();
    },

    async versions(assistantId, query, visible) {
      if (!isUuid(assistantId)) return [];
      const params: unknown[] = [assistantId];
      let where = 'v.assistant_id = $1::uuid';
      if (query.metadata && Object.keys(query.metadata).length > 0) {
        params.push(JSON.stringify(query.metadata));
        where += ` AND v.metadata @> $${params.length}::jsonb`;
      }
      where += visibleSql(visible, 'v', params);
      params.push(query.limit, query.offset);
      const rows = await prisma.$queryRawUnsafe<AssistantRow[]>(
        `SELECT ${VERSION_COLUMNS} FROM assistant_versions v WHERE ${where} ORDER BY v.version DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
        ...params,
      );
      return rows.map(toAssistantVersion);
    },

    async setLatest(assistantId, version) {
      if (!isUuid(assistantId)) throw notFound();
      return prisma.$transaction(async (tx) => {
        if (!(await lockAssistant(tx, assistantId))) throw notFound();
        const updated = await tx.$executeRawUnsafe(
          `UPDATE assistants a SET graph_id = v.graph_id, name = v.name, description = v.description, config = v.config,
             context = v.context, metadata = v.metadata, version = v.version, updated_at = now()
           FROM assistant_versions v WHERE a.assistant_id = $1::uuid AND v.assistant_id = a.assistant_id AND v.version = $2`,
          assistantId,
          version,
        );
        if (updated === 0) throw new NotFoundError('Assistant version not found');
        return (await lockAssistant(tx, assistantId)) as Assistant;
      });
    },
  };
}
