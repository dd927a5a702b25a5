import { BaseStore, type Item, type ListNamespacesOperation, type MatchCondition, type Operation, type OperationResults, type SearchItem } from '@langchain/langgraph-checkpoint';
import { InputError, NotFoundError } from '@platform/errors';
import type { AccessFilter } from '../access-filter';
import { binderOf } from '../access-filter.sql';
import type { PrismaClient } from '../generated/prisma/client';
import { listNamespacesSql } from './list-namespaces.sql';
import { checkWritable, visibleItemSql } from './store-access.sql';
import { filterConditions, type Bind } from './store-filter.sql';
import { embedTexts, indexedTexts, unitVector, type IndexedText, type StoreIndex } from './store-index';
import { ITEM_COLUMNS, toItem, toSearchItem, type StoreItemRow } from './store-item-row';
import { checkNamespace, descendantsPattern, joinNamespace } from './store-namespace';
import { isGet, isPut, isSearch, type StoreGetOperation, type StoreOperation, type StorePutOperation, type StoreSearchOperation } from './store-operations';
import { storeWriteError } from './store-write-error';

/** TTL settings (`langgraph.json` → `store.ttl`). */
export interface StoreTtlConfig {
  /** Minutes an item lives when its put names no TTL; unset: such items live until deleted. */
  defaultTtlMinutes?: number;
  /** Whether reads (get, search) push a found item's expiry ahead when the caller does not say (default true). */
  refreshOnRead?: boolean;
}

export interface PrismaStoreOptions {
  ttl?: StoreTtlConfig;
  /** Semantic search: puts embed the indexed fields, searches with a `query` rank by similarity. */
  index?: StoreIndex;
}

/** A put's texts to index and their vectors, in the same order. */
interface EmbeddedTexts {
  texts: IndexedText[];
  vectors: number[][];
}

const NOT_EXPIRED = '(expires_at IS NULL OR expires_at > now())';
const SEARCH_ORDER = 'ORDER BY updated_at DESC, prefix, key';
// With a query: most similar first; items without vectors (put with `index: false`, or nothing to embed) after.
const RANKED_ORDER = 'ORDER BY score DESC NULLS LAST, updated_at DESC, prefix, key';

// An item's score: the best cosine similarity of the query (unit vector `query`) to any of its vectors (unit too).
// Vectors of another length (from an earlier `dims`) are left out: the item is unranked until it is put again.
const itemScore = (query: string, dims: string) =>
  `(SELECT max((SELECT sum(a * b) FROM unnest(v.embedding, ${query}::real[]) AS t(a, b)))::float8
      FROM store_vectors v WHERE v.prefix = s.prefix AND v.key = s.key AND cardinality(v.embedding) = ${dims}::int)`;

const UPSERT_ITEM = `INSERT INTO store_items (prefix, key, value, created_at, updated_at, expires_at, ttl_minutes)
  VALUES ($1, $2, $3::jsonb, now(), now(), now() + $4::float8 * interval '1 minute', $4::float8)
  ON CONFLICT (prefix, key) DO UPDATE SET
    value = EXCLUDED.value, updated_at = now(), expires_at = EXCLUDED.expires_at, ttl_minutes = EXCLUDED.ttl_minutes,
    created_at = CASE WHEN store_items.expires_at <= now() THEN now() ELSE store_items.created_at END`;

// Refreshes the TTL of the rows a `hit` CTE found, when `$refresh` is true (a data-modifying CTE always runs).
const refreshHits = (refresh: string, only = 'TRUE') =>
  `refreshed AS (UPDATE store_items s SET expires_at = now() + hit.ttl_minutes * interval '1 minute'
     FROM hit WHERE ${refresh}::boolean AND ${only} AND hit.ttl_minutes IS NOT NULL AND s.prefix = hit.prefix AND s.key = hit.key)`;

const itemNotFound = () => new NotFoundError('Item not found');

type Writer = Pick<PrismaClient, '$executeRawUnsafe'>;

function binder(): { params: unknown[]; bind: Bind } {
  const params: unknown[] = [];
  return {
    params,
    bind: (value) => {
      params.push(value);
      return `$${params.length}`;
    },
  };
}

function ttlMinutes(ttl: number | null | undefined, fallback: number | undefined): number | null {
  const minutes = ttl === undefined ? (fallback ?? null) : ttl;
  if (minutes !== null && !(Number.isFinite(minutes) && minutes > 0)) throw new InputError('ttl must be a positive number of minutes');
  return minutes;
}

/**
 * LangGraph's `BaseStore` on the agent-server database (`store_items`): what graph nodes get as `store` and what
 * the `/store` routes serve. Items may expire (TTL in minutes, refreshed on read unless told otherwise); expired
 * items are invisible at once and deleted by `sweepExpired()`.
 *
 * With an index (`store.index`), a put embeds the texts at the item's indexed fields (`index` of the put, else the
 * configured fields; `index: false`: none) and a search with a `query` ranks the matching items by cosine
 * similarity, as LangGraph's stores do: `score` is the best over the item's fields, and items without vectors come
 * last with no score. Similarity is computed in SQL over the items the namespace prefix and filter leave, so it
 * suits stores of up to some hundred thousand items per searched prefix. Without an index a `query` is accepted
 * and ignored (results are not ranked and carry no score), as LangGraph's stores do with no index set.
 *
 * The `/store` routes pass `visible`, the caller's filter from the deployment's auth, on `{...value, namespace, key}`:
 * an item it hides is not found (404), and a write must leave an item it lets through (403 otherwise).
 */
export class PrismaStore extends BaseStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly options: PrismaStoreOptions = {},
  ) {
    super();
  }

  /**
   * Runs the operations in order; each result sits at its operation's index. With an index, the texts of all
   * the batch's puts are embedded in one call first (graphs' concurrent puts arrive here as one batch).
   */
  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const ops = operations as StoreOperation[];
    const embedded = await this.embedPuts(ops.filter(isPut));
    const results: unknown[] = [];
    for (const op of ops) {
      if (isSearch(op)) results.push(await this.searchOp(op));
      else if (isPut(op)) results.push(await this.putOp(op, embedded.get(op)));
      else if (isGet(op)) results.push(await this.getOp(op));
      else results.push(await this.listNamespacesOp(op));
    }
    return results as OperationResults<Op>;
  }

  /** `get` with the TTL refresh chosen per call; NotFoundError for an item `visible` hides (null: none). */
  async getItem(namespace: string[], key: string, options: { refreshTtl?: boolean; visible?: AccessFilter } = {}): Promise<Item | null> {
    return this.getOp({ namespace, key, refreshTtl: options.refreshTtl }, options.visible);
  }

  /** `put` with a TTL in minutes (`null`: never expires; absent: the default TTL). */
  async putItem(
    namespace: string[],
    key: string,
    value: Record<string, unknown>,
    options: { index?: false | string[]; ttl?: number | null; visible?: AccessFilter } = {},
  ): Promise<void> {
    checkNamespace(namespace);
    checkWritable(options.visible, namespace, key, value);
    const op: StorePutOperation = { namespace, key, value, index: options.index, ttl: options.ttl };
    await this.putOp(op, (await this.embedPuts([op])).get(op), options.visible);
  }

  /** `search` with the TTL refresh chosen per call. */
  async searchItems(
    namespacePrefix: string[],
    options: { filter?: Record<string, unknown>; limit?: number; offset?: number; query?: string; refreshTtl?: boolean; visible?: AccessFilter } = {},
  ): Promise<SearchItem[]> {
    const { visible, ...search } = options;
    return this.searchOp({ namespacePrefix, ...search }, visible);
  }

  /** `delete` without LangGraph's extra label rules (":" is a plain character here). */
  async deleteItem(namespace: string[], key: string, options: { visible?: AccessFilter } = {}): Promise<void> {
    if (!options.visible) return this.putOp({ namespace, key, value: null });
    checkNamespace(namespace, { allowEmpty: true });
    const params: unknown[] = [joinNamespace(namespace), key];
    const deleted = await this.prisma.$executeRawUnsafe(
      `DELETE FROM store_items s WHERE prefix = $1 AND key = $2 AND ${visibleItemSql(options.visible, 's', binderOf(params))}`,
      ...params,
    );
    if (deleted > 0) return;
    // Nothing deleted: the item is hidden (404), or missing, which only a caller that could have put it may hear.
    if (await this.getOp({ namespace, key, refreshTtl: false })) throw itemNotFound();
    checkWritable(options.visible, namespace, key, null);
  }

  /** `listNamespaces` without LangGraph's extra label rules (":" is a plain character here; "*" is any label). */
  async findNamespaces(
    options: { prefix?: string[]; suffix?: string[]; maxDepth?: number; limit?: number; offset?: number; visible?: AccessFilter } = {},
  ): Promise<string[][]> {
    const matchConditions: MatchCondition[] = [];
    if (options.prefix) matchConditions.push({ matchType: 'prefix', path: options.prefix });
    if (options.suffix) matchConditions.push({ matchType: 'suffix', path: options.suffix });
    for (const { path } of matchConditions) checkNamespace(path, { allowEmpty: true });
    const op = { matchConditions, maxDepth: options.maxDepth, limit: options.limit ?? 100, offset: options.offset ?? 0 };
    return this.listNamespacesOp(op, options.visible);
  }

  /** Deletes expired items, a thousand rows per statement so no replica holds long locks; returns how many. */
  async sweepExpired(): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await this.prisma.$executeRawUnsafe(
        `DELETE FROM store_items WHERE (prefix, key) IN (
           SELECT prefix, key FROM store_items WHERE expires_at <= now() LIMIT 1000 FOR UPDATE SKIP LOCKED)`,
      );
      total += deleted;
      if (deleted < 1000) return total;
    }
  }

  private refreshDefault(refreshTtl: boolean | undefined): boolean {
    return refreshTtl ?? this.options.ttl?.refreshOnRead ?? true;
  }

  private async getOp(op: StoreGetOperation, visible?: AccessFilter): Promise<Item | null> {
    checkNamespace(op.namespace, { allowEmpty: true });
    const params: unknown[] = [joinNamespace(op.namespace), op.key, this.refreshDefault(op.refreshTtl)];
    // A hidden item is neither shown nor refreshed.
    const allowed = visibleItemSql(visible, 's', binderOf(params));
    const rows = await this.prisma.$queryRawUnsafe<(StoreItemRow & { allowed: boolean })[]>(
      `WITH hit AS (SELECT ${ITEM_COLUMNS}, ttl_minutes, ${allowed} AS allowed FROM store_items s WHERE prefix = $1 AND key = $2 AND ${NOT_EXPIRED}),
       ${refreshHits('$3', 'hit.allowed')}
       SELECT ${ITEM_COLUMNS}, allowed FROM hit`,
      ...params,
    );
    if (rows[0] && !rows[0].allowed) throw itemNotFound();
    return rows[0] ? toItem(rows[0]) : null;
  }

  private async searchOp(op: StoreSearchOperation, visible?: AccessFilter): Promise<SearchItem[]> {
    checkNamespace(op.namespacePrefix, { allowEmpty: true });
    const { params, bind } = binder();
    const where = [NOT_EXPIRED];
    if (op.namespacePrefix.length > 0) {
      const prefix = joinNamespace(op.namespacePrefix);
      where.push(`(prefix = ${bind(prefix)} OR prefix LIKE ${bind(descendantsPattern(prefix))} ESCAPE '\\')`);
    }
    where.push(...filterConditions(op.filter, bind, 's.value'));
    if (visible) where.push(visibleItemSql(visible, 's', bind));
    const index = this.options.index;
    const ranked = Boolean(op.query && index);
    const score = ranked && index ? itemScore(bind(unitVector(await index.embeddings.embedQuery(op.query!), index.dims)), bind(index.dims)) : 'NULL::float8';
    const order = ranked ? RANKED_ORDER : SEARCH_ORDER;
    const page = `LIMIT ${bind(op.limit ?? 10)}::int OFFSET ${bind(op.offset ?? 0)}::int`;
    const refresh = bind(this.refreshDefault(op.refreshTtl));
    const rows = await this.prisma.$queryRawUnsafe<StoreItemRow[]>(
      `WITH hit AS (SELECT ${ITEM_COLUMNS}, ttl_minutes, ${score} AS score FROM store_items s WHERE ${where.join(' AND ')} ${order} ${page}),
       ${refreshHits(refresh)}
       SELECT ${ITEM_COLUMNS}, score FROM hit ${order}`,
      ...params,
    );
    return rows.map(toSearchItem);
  }

  /** The texts and unit vectors of each put that has something to embed (none without an index). */
  private async embedPuts(puts: readonly StorePutOperation[]): Promise<Map<StorePutOperation, EmbeddedTexts>> {
    const index = this.options.index;
    const embedded = new Map<StorePutOperation, EmbeddedTexts>();
    if (!index) return embedded;
    const texts = new Map<StorePutOperation, IndexedText[]>();
    for (const op of puts) {
      if (op.value === null || op.index === false) continue;
      // Refused puts are refused before any embeddings are paid for.
      checkNamespace(op.namespace);
      ttlMinutes(op.ttl, this.options.ttl?.defaultTtlMinutes);
      texts.set(op, indexedTexts(op.value, op.index ?? index.fields));
    }
    const vectors = await embedTexts(index, [...texts.values()].flat());
    let at = 0;
    for (const [op, opTexts] of texts) {
      embedded.set(op, { texts: opTexts, vectors: vectors.slice(at, at + opTexts.length) });
      at += opTexts.length;
    }
    return embedded;
  }

  private async putOp(op: StorePutOperation, embedded: EmbeddedTexts = { texts: [], vectors: [] }, visible?: AccessFilter): Promise<void> {
    checkNamespace(op.namespace, { allowEmpty: op.value === null });
    const prefix = joinNamespace(op.namespace);
    if (op.value === null) {
      await this.prisma.$executeRawUnsafe('DELETE FROM store_items WHERE prefix = $1 AND key = $2', prefix, op.key);
      return;
    }
    const ttl = ttlMinutes(op.ttl, this.options.ttl?.defaultTtlMinutes);
    if (visible) return this.guardedPut(prefix, op, ttl, embedded, visible);
    // A put over an expired (not yet swept) item creates it anew.
    const upsert = this.prisma.$executeRawUnsafe(UPSERT_ITEM, prefix, op.key, JSON.stringify(op.value), ttl);
    // With an index, the item's vectors are replaced with it (none with `index: false`), in one transaction.
    const write = this.options.index ? this.prisma.$transaction([upsert, ...this.replaceVectors(this.prisma, prefix, op.key, embedded)]) : upsert;
    await write.catch((err: unknown) => {
      throw storeWriteError(err);
    });
  }

  /** A put over a live item the caller may not see changes nothing and is a NotFoundError. */
  private async guardedPut(prefix: string, op: StorePutOperation, ttl: number | null, embedded: EmbeddedTexts, visible: AccessFilter): Promise<void> {
    const params: unknown[] = [prefix, op.key, JSON.stringify(op.value), ttl];
    const upsert = `${UPSERT_ITEM} WHERE store_items.expires_at <= now() OR ${visibleItemSql(visible, 'store_items', binderOf(params))}`;
    const written = await this.prisma
      .$transaction(async (tx) => {
        const count = await tx.$executeRawUnsafe(upsert, ...params);
        if (count > 0 && this.options.index) for (const statement of this.replaceVectors(tx, prefix, op.key, embedded)) await statement;
        return count;
      })
      .catch((err: unknown) => {
        throw storeWriteError(err);
      });
    if (written === 0) throw itemNotFound();
  }

  private replaceVectors(client: Writer, prefix: string, key: string, embedded: EmbeddedTexts) {
    const rows = JSON.stringify(embedded.texts.map((t, i) => ({ path: t.path, embedding: embedded.vectors[i] })));
    return [
      client.$executeRawUnsafe('DELETE FROM store_vectors WHERE prefix = $1 AND key = $2', prefix, key),
      client.$executeRawUnsafe(
        `INSERT INTO store_vectors (prefix, key, field_path, embedding)
         SELECT $1, $2, v->>'path', ARRAY(SELECT e::real FROM jsonb_array_elements_text(v->'embedding') AS e)
         FROM jsonb_array_elements($3::jsonb) AS v`,
        prefix,
        key,
        rows,
      ),
    ];
  }

  private async listNamespacesOp(op: ListNamespacesOperation, visible?: AccessFilter): Promise<string[][]> {
    const { sql, params } = listNamespacesSql(op, NOT_EXPIRED, visible);
    const rows = await this.prisma.$queryRawUnsafe<{ namespace: string[] }[]>(sql, ...params);
    return rows.map((row) => row.namespace);
  }
}
