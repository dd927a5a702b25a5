import { storableText, unstorableTextIssues, unstorableTextReason } from './unstorable-text';

describe('unstorableTextReason', () => {
  it('accepts text Postgres can store, paired surrogates (emoji) included', () => {
    for (const text of ['', 'plain', 'é ü ß', '😀 and 𝄞', '\u0001\u001f\u007f', '\uFFFD']) expect(unstorableTextReason(text)).toBeUndefined();
  });

  it('names U+0000 and unpaired surrogates', () => {
    expect(unstorableTextReason('a\u0000b')).toMatch(/null character/);
    for (const text of ['\ud800', 'x\udbffy', '\udc00', 'a\udfff', '😀\ud83d', '\ude00😀']) expect(unstorableTextReason(text)).toMatch(/unpaired surrogate/);
  });
});

describe('storableText', () => {
  it('returns storable text as it is, and drops U+0000 and marks unpaired surrogates otherwise', () => {
    expect(storableText('plain 😀')).toBe('plain 😀');
    expect(storableText('a\u0000b\ud800c\udc00 😀 \ud83d')).toBe('ab\ufffdc\ufffd 😀 \ufffd');
  });
});

describe('unstorableTextIssues', () => {
  it('finds nothing in storable values, and walks only plain objects and arrays', () => {
    expect(unstorableTextIssues({ a: ['x', { b: 1, c: null, d: true }], e: '😀' }, 'body')).toEqual([]);
    expect(unstorableTextIssues(new Map([['k', 'a\u0000']]), 'body')).toEqual([]);
    expect(unstorableTextIssues(undefined, 'query')).toEqual([]);
  });

  it('locates every unstorable string and key as FastAPI would, in document order', () => {
    const value = { metadata: { ok: 'fine', bad: 'a\u0000' }, input: { messages: [{ content: 'x' }, { content: '\ud800' }] }, ['k\u0000']: 1 };
    expect(unstorableTextIssues(value, 'body')).toEqual([
      { loc: ['body', 'metadata', 'bad'], msg: 'String should not contain the null character (\\u0000)', type: 'value_error' },
      { loc: ['body', 'input', 'messages', 1, 'content'], msg: 'String should not contain an unpaired surrogate (\\ud800-\\udfff)', type: 'value_error' },
      { loc: ['body', 'k\u0000', '[key]'], msg: 'String should not contain the null character (\\u0000)', type: 'value_error' },
    ]);
    expect(unstorableTextIssues('\u0000', 'path')).toEqual([{ loc: ['path'], msg: expect.stringMatching(/null/), type: 'value_error' }]);
  });

  it('stops at the limit, and walks any depth without recursion', () => {
    expect(unstorableTextIssues(Array.from({ length: 50 }, () => '\u0000'), 'body', 5)).toHaveLength(5);
    let deep: unknown = 'bottom\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const [issue] = unstorableTextIssues(deep, 'body');
    expect(issue!.loc).toHaveLength(100_001);
  });
});
