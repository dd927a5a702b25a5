import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OpenAIEmbeddings } from '@langchain/openai';
import { InputError } from '@platform/errors';
import { loadStoreEmbeddings } from './store-embeddings';

describe('loadStoreEmbeddings (store.index.embed)', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'store-embeddings-'));
    writeFileSync(
      path.join(dir, 'embed.ts'),
      `const lengths = (texts: string[]): number[][] => texts.map((t) => [t.length, 1]);
       export async function embed(texts: string[]) { return lengths(texts); }
       export const embeddings = { embedDocuments: async (texts: string[]) => lengths(texts), embedQuery: async (t: string) => [t.length, 2] };
       export const notEmbeddings = 42;
       export default embed;`,
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('wraps an exported function of texts as Embeddings', async () => {
    const embeddings = await loadStoreEmbeddings('./embed.ts:embed', dir);
    expect(await embeddings.embedDocuments(['ab', 'abc'])).toEqual([[2, 1], [3, 1]]);
    expect(await embeddings.embedQuery('abcd')).toEqual([4, 1]);
    // No export named: the default export.
    expect(await (await loadStoreEmbeddings('./embed.ts', dir)).embedQuery('a')).toEqual([1, 1]);
  });

  it('takes an exported Embeddings object as it is', async () => {
    const embeddings = await loadStoreEmbeddings(`${path.join(dir, 'embed.ts')}:embeddings`, dir);
    expect(await embeddings.embedQuery('abc')).toEqual([3, 2]);
  });

  it('makes the provider’s embeddings for provider:model', async () => {
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-test-not-used';
    try {
      const embeddings = await loadStoreEmbeddings('openai:text-embedding-3-small', dir);
      expect(embeddings).toBeInstanceOf(OpenAIEmbeddings);
      expect((embeddings as OpenAIEmbeddings).model).toBe('text-embedding-3-small');
      delete process.env.OPENAI_API_KEY;
      await expect(loadStoreEmbeddings('openai:text-embedding-3-small', dir)).rejects.toThrow("openai:text-embedding-3-small needs OPENAI_API_KEY in the deployment's env");
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });

  it.each([
    ['./missing.ts:embed', 'file ./missing.ts not found'],
    ['./embed.ts:nope', "./embed.ts has no export 'nope' (exports: "],
    ['./embed.ts:notEmbeddings', 'neither an Embeddings object nor a function'],
    ['cohere:embed-english-v3.0', "'cohere:embed-english-v3.0' is neither provider:model (providers: openai) nor path:export"],
    ['openai:', 'neither provider:model'],
    ['text-embedding-3-small', 'neither provider:model'],
    ['constructor:x', 'neither provider:model'],
    ['__proto__:x', 'neither provider:model'],
  ])('refuses %s with an InputError', async (embed, message) => {
    const load = loadStoreEmbeddings(embed, dir);
    await expect(load).rejects.toBeInstanceOf(InputError);
    await expect(loadStoreEmbeddings(embed, dir)).rejects.toThrow(message);
  });
});
