import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { ValidationError } from '@platform/errors';
import { signIdentity } from '@platform/identity';
import { silentLogger } from '@platform/logging';
import { MiB } from './body-limits';
import { createHttpApp } from './create-http-app';
import { InvalidUtf8Error, MAX_JSON_DEPTH, invalidUtf8Offset, jsonDepthOverflow, parseJsonBytes } from './json-bytes';

/** `{"v": [[...[1]...]]}`: a body nested `depth` levels deep (the body itself is level 1). */
export const nestedBody = (depth: number) => `{"v": ${'['.repeat(depth - 1)}1${']'.repeat(depth - 1)}}`;

// Byte sequences that are not UTF-8, each with the offset of its first bad byte once put after `{"a": "x`.
const BAD_UTF8: [string, number[], number][] = [
  ['a lone continuation byte', [0x80], 0],
  ['0xFF', [0xff], 0],
  ['an overlong "/"', [0xc0, 0xaf], 0],
  ['an overlong 3-byte form', [0xe0, 0x80, 0xaf], 0],
  ['a UTF-16 surrogate (CESU-8)', [0xed, 0xa0, 0x80], 0],
  ['a code point past U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 0],
  ['a cut 3-byte sequence', [0xe2, 0x82, 0x41], 0],
  ['a 4-byte sequence cut by the quote', [0xf0, 0x9f, 0x98], 0],
  ['a bad byte after good multi-byte text', [0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xff], 5],
];

describe('parseJsonBytes (every JSON request body)', () => {
  it('measures nesting outside strings only, whatever the strings hold', () => {
    expect(jsonDepthOverflow(Buffer.from(nestedBody(MAX_JSON_DEPTH)))).toBe(-1);
    const over = Buffer.from(nestedBody(MAX_JSON_DEPTH + 1));
    expect(jsonDepthOverflow(over)).toBe(over.indexOf('['.repeat(MAX_JSON_DEPTH)) + MAX_JSON_DEPTH - 1);
    // Brackets in strings, escaped quotes and backslashes do not count.
    const strings = JSON.stringify({ a: '['.repeat(2000), b: '\\"{{{{'.repeat(500), c: ['\\', '"[', '{\\\\'] });
    expect(jsonDepthOverflow(Buffer.from(strings))).toBe(-1);
    const escaped = `{"a": "\\\\", "b": ${'['.repeat(600)}`;
    expect(jsonDepthOverflow(Buffer.from(escaped))).toBe(escaped.indexOf('[') + MAX_JSON_DEPTH - 1);
  });

  it('accepts JSON up to the limit and refuses deeper with a json_invalid 422 naming the limit', () => {
    for (const depth of [MAX_JSON_DEPTH - 1, MAX_JSON_DEPTH]) expect(parseJsonBytes(Buffer.from(nestedBody(depth)))).toEqual(JSON.parse(nestedBody(depth)));
    for (const depth of [MAX_JSON_DEPTH + 1, 6_000, 100_000]) {
      const refused = (() => {
        try {
          parseJsonBytes(Buffer.from(nestedBody(depth)), ['body', 'post.x']);
        } catch (err) {
          return err;
        }
      })();
      expect(refused).toBeInstanceOf(ValidationError);
      expect((refused as ValidationError).issues).toEqual([
        { loc: ['body', 'post.x'], type: 'json_invalid', msg: expect.stringContaining(`nested deeper than ${MAX_JSON_DEPTH} levels (the limit)`) },
      ]);
    }
  });

  it('refuses bytes that are not UTF-8 with a 400 naming the offset of the first bad byte', () => {
    const prefix = Buffer.from('{"a": "x');
    for (const [what, bytes, at] of BAD_UTF8) {
      const body = Buffer.concat([prefix, Buffer.from(bytes), Buffer.from('"}')]);
      expect([what, invalidUtf8Offset(body)]).toEqual([what, prefix.length + at]);
      expect(() => parseJsonBytes(body, ['body'], 'Part post.x')).toThrow(
        new InvalidUtf8Error('Part post.x', prefix.length + at, body[prefix.length + at]),
      );
    }
    expect(() => parseJsonBytes(Buffer.from([0x7b, 0xff]))).toThrow(/^Request body is not valid UTF-8: byte 0xFF at offset 1 /);
    const fine = Buffer.from(JSON.stringify({ a: 'é€😀 \u{10FFFF} \uFFFD' }));
    expect(invalidUtf8Offset(fine)).toBe(-1);
    expect(parseJsonBytes(fine)).toEqual({ a: 'é€😀 \u{10FFFF} \uFFFD' });
  });

  it('answers json_invalid for JSON that does not parse, at the given location', () => {
    expect(() => parseJsonBytes(Buffer.from('{"a": '), ['body', 'post.x'])).toThrow(ValidationError);
    try {
      parseJsonBytes(Buffer.from('['), ['body', 'post.x']);
    } catch (err) {
      expect((err as ValidationError).issues[0]).toMatchObject({ loc: ['body', 'post.x'], type: 'json_invalid' });
    }
  });
});

describe('jsonBody() in createHttpApp: nesting and UTF-8', () => {
  const secret = 'test-internal-secret-123';
  const signed = { ...signIdentity(secret, { tenantId: 't', organizationId: 'o', subject: 's' }, 'r1'), 'x-request-id': 'r1' };
  let handled = 0;
  const { app } = createHttpApp({
    service: 'svc',
    logger: silentLogger,
    identity: { secret },
    bodyLimits: { defaultBytes: 2 * MiB },
    routes: (a) => {
      a.post('/echo', (req, res) => {
        handled++;
        res.json(req.body);
      });
    },
  });
  const post = (body: Buffer | string, headers: Record<string, string> = {}) =>
    request(app)
      .post('/echo')
      .set(signed)
      .set({ 'content-type': 'application/json', ...headers })
      .serialize((b) => b)
      .send(body);

  it('round-trips a body nested to the limit, and refuses one past it before the route runs, also gzipped', async () => {
    for (const depth of [MAX_JSON_DEPTH - 1, MAX_JSON_DEPTH]) {
      const res = await post(nestedBody(depth)).expect(200);
      expect(res.body).toEqual(JSON.parse(nestedBody(depth)));
    }
    handled = 0;
    for (const depth of [MAX_JSON_DEPTH + 1, 6_000, 200_000]) {
      for (const encoded of [false, true]) {
        const body = Buffer.from(nestedBody(depth));
        const res = await post(encoded ? gzipSync(body) : body, encoded ? { 'content-encoding': 'gzip' } : {});
        expect([depth, encoded, res.status]).toEqual([depth, encoded, 422]);
        expect(res.body.detail).toEqual([{ loc: ['body', 0], type: 'json_invalid', msg: expect.stringContaining(`nested deeper than ${MAX_JSON_DEPTH} levels`) }]);
      }
    }
    expect(handled).toBe(0);
  });

  it('refuses invalid UTF-8 anywhere in the body with a 400 naming the offset, keeps valid text as sent', async () => {
    handled = 0;
    const text = Buffer.from('{"key": "some value", "list": ["a", "b"], "n": 1}');
    for (let offset = 0; offset < text.length; offset += 5) {
      for (const bad of [[0xff], [0xc3], [0xed, 0xb0, 0x80]]) {
        const body = Buffer.concat([text.subarray(0, offset), Buffer.from(bad), text.subarray(offset)]);
        const res = await post(body);
        expect([offset, res.status, res.body]).toEqual([offset, 400, { detail: expect.stringMatching(new RegExp(`^Request body is not valid UTF-8: byte 0x[0-9A-F]{2} at offset ${offset} `)) }]);
      }
    }
    const gz = await post(gzipSync(Buffer.concat([text, Buffer.from([0xfe])])), { 'content-encoding': 'gzip' }).expect(400);
    expect(gz.body.detail).toMatch(new RegExp(`at offset ${text.length} `));
    expect(handled).toBe(0);
    await post(text).expect(200, JSON.parse(text.toString()));
    const unicode = { a: 'é€😀 \u{10FFFF} \uFFFD' };
    await post(JSON.stringify(unicode)).expect(200, unicode);
  });
});
