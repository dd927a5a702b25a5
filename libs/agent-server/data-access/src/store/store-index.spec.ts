import { embedTexts, indexedTexts, tokenizeFieldPath, unitVector } from './store-index';
import { VocabularyEmbeddings } from './store-index.testing';

describe('indexedTexts: what a put embeds', () => {
  const value = {
    title: 'Hello',
    count: 3,
    done: false,
    nothing: null,
    meta: { lang: 'en', tags: ['a', 'b'] },
    chapters: [{ body: 'one' }, { body: 'two' }, { body: 'three' }],
  };

  it('splits paths into names, [index] and {fields}', () => {
    expect(tokenizeFieldPath('a.b[0].c{d,e.f}')).toEqual(['a', 'b', '[0]', 'c', '{d,e.f}']);
    expect(tokenizeFieldPath('chapters[*].body')).toEqual(['chapters', '[*]', 'body']);
  });

  it('takes strings as they are, prints numbers and booleans, and embeds objects as JSON', () => {
    expect(indexedTexts(value, ['title', 'count', 'done', 'nothing', 'missing'])).toEqual([
      { path: 'title', text: 'Hello' },
      { path: 'count', text: '3' },
      { path: 'done', text: 'false' },
    ]);
    expect(indexedTexts(value, ['meta'])).toEqual([{ path: 'meta', text: JSON.stringify(value.meta, null, 2) }]);
    expect(indexedTexts(value, ['$'])).toEqual([{ path: '$', text: JSON.stringify(value, null, 2) }]);
  });

  it('names each text of a path that finds several `path.i`', () => {
    expect(indexedTexts(value, ['chapters[*].body'])).toEqual([
      { path: 'chapters[*].body.0', text: 'one' },
      { path: 'chapters[*].body.1', text: 'two' },
      { path: 'chapters[*].body.2', text: 'three' },
    ]);
    expect(indexedTexts(value, ['chapters[-1].body', 'chapters[5].body', 'meta.tags[1]'])).toEqual([
      { path: 'chapters[-1].body', text: 'three' },
      { path: 'meta.tags[1]', text: 'b' },
    ]);
    expect(indexedTexts(value, ['meta{lang,tags[0]}'])).toEqual([
      { path: 'meta{lang,tags[0]}.0', text: 'en' },
      { path: 'meta{lang,tags[0]}.1', text: 'a' },
    ]);
    expect(indexedTexts(value, ['meta.*']).map((t) => t.path)).toEqual(['meta.*.0', 'meta.*.1']);
  });
});

describe('unitVector and embedTexts', () => {
  it('scales to unit length and refuses the wrong size or non-numbers', () => {
    expect(unitVector([3, 4], 2)).toEqual([0.6, 0.8]);
    expect(unitVector([0, 0], 2)).toEqual([0, 0]);
    expect(() => unitVector([1, 2, 3], 2)).toThrow('3 dimensions, not 2 (store.index.dims)');
    expect(() => unitVector(undefined, 2)).toThrow('no dimensions');
    expect(() => unitVector([1, Number.NaN], 2)).toThrow('finite');
  });

  it('embeds each distinct text once and hands the vectors back in order', async () => {
    const embeddings = new VocabularyEmbeddings(['sun', 'rain']);
    const vectors = await embedTexts({ embeddings, dims: 2, fields: ['$'] }, [
      { path: 'a', text: 'sun' },
      { path: 'b', text: 'rain rain' },
      { path: 'c', text: 'sun' },
    ]);
    expect(embeddings.documents).toEqual([['sun', 'rain rain']]);
    expect(vectors).toEqual([[1, 0], [0, 1], [1, 0]]);
    expect(await embedTexts({ embeddings, dims: 2, fields: ['$'] }, [])).toEqual([]);
    expect(embeddings.documents).toHaveLength(1);
  });
});
