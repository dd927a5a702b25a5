import type { EmbeddingsInterface } from '@langchain/core/embeddings';

/** What turns texts into vectors: LangChain's `Embeddings`, or anything with their two methods. */
export type StoreEmbeddings = Pick<EmbeddingsInterface, 'embedDocuments' | 'embedQuery'>;

/** Semantic search (`store.index` in langgraph.json). */
export interface StoreIndex {
  embeddings: StoreEmbeddings;
  /** Length of every embedding. */
  dims: number;
  /** Paths of a value embedded when a put names none (`$`: the whole value). */
  fields: string[];
}

/** One embedded text of an item: LangGraph's field path (`text`; `tags[*].1` for the 2nd text a path found) and the text. */
export interface IndexedText {
  path: string;
  text: string;
}

/** `a.b[0].c{d,e}` → `['a', 'b', '[0]', 'c', '{d,e}']`: names, `[index]`/`[*]` and `{field,...}` groups. */
export function tokenizeFieldPath(path: string): string[] {
  const tokens: string[] = [];
  let name = '';
  const flush = () => {
    if (name) tokens.push(name);
    name = '';
  };
  for (let i = 0; i < path.length; i++) {
    const char = path[i];
    if (char === '.') {
      flush();
    } else if (char === '[' || char === '{') {
      flush();
      const close = char === '[' ? ']' : '}';
      const end = path.indexOf(close, i + 1);
      const stop = end < 0 ? path.length : end + 1;
      tokens.push(path.slice(i, stop));
      i = stop - 1;
    } else {
      name += char;
    }
  }
  flush();
  return tokens;
}

// A value found at the end of a path, as text: strings as they are, numbers and booleans printed, objects and
// arrays as (indented) JSON, null as nothing — what LangGraph's stores embed.
function asTexts(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (typeof value === 'object' && value !== null) return [JSON.stringify(value, null, 2)];
  return [];
}

function textsAt(value: unknown, tokens: readonly string[]): string[] {
  if (!tokens.length) return asTexts(value);
  const [token, ...rest] = tokens;
  if (token.startsWith('[')) {
    if (!Array.isArray(value)) return [];
    const index = token.slice(1, -1).trim();
    if (index === '*') return value.flatMap((item) => textsAt(item, rest));
    if (!/^-?\d+$/.test(index)) return [];
    const at = Number(index) < 0 ? value.length + Number(index) : Number(index);
    return at >= 0 && at < value.length ? textsAt(value[at], rest) : [];
  }
  if (typeof value !== 'object' || value === null) return [];
  if (token.startsWith('{')) {
    const fields = token.slice(1, -1).split(',').map((field) => field.trim()).filter(Boolean);
    return fields.flatMap((field) => textsAt(value, [...tokenizeFieldPath(field), ...rest]));
  }
  if (token === '*') return Object.values(value).flatMap((item) => textsAt(item, rest));
  return Object.prototype.hasOwnProperty.call(value, token) ? textsAt((value as Record<string, unknown>)[token], rest) : [];
}

/**
 * The texts of `value` at `paths`, found and named as LangGraph's stores do. A path is `$` (the whole value as
 * JSON) or dotted names with `[i]` (negative from the end), `[*]`, `*` (every value) and `{a,b}` (several
 * fields). A path yielding several texts gets one entry per text, `path.i`.
 */
export function indexedTexts(value: Record<string, unknown>, paths: readonly string[]): IndexedText[] {
  const texts: IndexedText[] = [];
  for (const path of paths) {
    const found = path === '$' ? [JSON.stringify(value, null, 2)] : textsAt(value, tokenizeFieldPath(path));
    if (found.length === 1) texts.push({ path, text: found[0] });
    else found.forEach((text, i) => texts.push({ path: `${path}.${i}`, text }));
  }
  return texts;
}

/**
 * `vector` scaled to unit length, so that a dot product of two is their cosine similarity. Throws when the
 * embeddings returned something of the wrong length or not finite (a misconfigured `store.index`).
 */
export function unitVector(vector: readonly number[] | undefined, dims: number): number[] {
  if (!Array.isArray(vector) || vector.length !== dims) {
    throw new Error(`store.index: the embeddings returned a vector of ${Array.isArray(vector) ? vector.length : 'no'} dimensions, not ${dims} (store.index.dims)`);
  }
  let norm = 0;
  for (const x of vector) {
    if (!Number.isFinite(x)) throw new Error('store.index: the embeddings returned a vector with a value that is not a finite number');
    norm += x * x;
  }
  norm = Math.sqrt(norm);
  return norm === 0 ? vector.map(() => 0) : vector.map((x) => x / norm);
}

/** Embeds the item texts (each distinct text once); the vectors come back in `texts`' order, unit length. */
export async function embedTexts(index: StoreIndex, texts: readonly IndexedText[]): Promise<number[][]> {
  if (!texts.length) return [];
  const distinct = [...new Set(texts.map((t) => t.text))];
  const vectors = await index.embeddings.embedDocuments(distinct);
  if (!Array.isArray(vectors) || vectors.length !== distinct.length) {
    throw new Error(`store.index: the embeddings returned ${Array.isArray(vectors) ? vectors.length : 'no'} vectors for ${distinct.length} texts`);
  }
  const byText = new Map(distinct.map((text, i) => [text, unitVector(vectors[i], index.dims)]));
  return texts.map((t) => byText.get(t.text)!);
}
