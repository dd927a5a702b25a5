import { jsonParam } from './json-param';

describe('jsonParam', () => {
  it('is plain JSON when Postgres can store it', () => {
    expect(jsonParam({ a: 'b', n: [1, null] })).toBe('{"a":"b","n":[1,null]}');
  });

  it('drops NUL characters and replaces lone surrogates, in values and keys', () => {
    expect(JSON.parse(jsonParam({ 'k\u0000': 'a\u0000b', s: 'x\ud800y', pair: '😀' }))).toEqual({ k: 'ab', s: 'x\ufffdy', pair: '😀' });
  });
});
