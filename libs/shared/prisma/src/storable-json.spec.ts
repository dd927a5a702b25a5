import { storableJson, storableJsonText } from './storable-json';

describe('storableJson', () => {
  it('is plain JSON when Postgres can store it', () => {
    expect(storableJson({ a: 'b', n: [1, null] })).toBe('{"a":"b","n":[1,null]}');
  });

  it('drops NUL characters and replaces lone surrogates, in values and keys', () => {
    expect(JSON.parse(storableJson({ 'k\u0000': 'a\u0000b', s: 'x\ud800y', pair: '😀' }))).toEqual({ k: 'ab', s: 'x\ufffdy', pair: '😀' });
  });
});

describe('storableJsonText', () => {
  it('returns storable text as it is, the same string', () => {
    const json = '{"b":1,"a":"😀 \\\\u0000 is text here"}';
    expect(storableJsonText(json)).toBe(json);
  });

  it('cleans text that holds U+0000 or a lone surrogate, keeping key order', () => {
    const json = JSON.stringify({ z: 'a\u0000b', list: ['\udc00x'], 'k\u0000': 1 });
    expect(storableJsonText(json)).toBe('{"z":"ab","list":["\\ufffdx"],"k":1}'.replace('\\ufffd', '\ufffd'));
  });
});
