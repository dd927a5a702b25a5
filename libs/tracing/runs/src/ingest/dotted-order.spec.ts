import { dottedOrderSegment, parseDottedOrder } from './dotted-order';

const ROOT = '01a1fe2c-fe42-7000-8000-02b1ab0a641d';
const CHILD = '01a1fe2c-fe43-7000-8000-02b1ab0a641e';

describe('parseDottedOrder', () => {
  it('gives each segment its time (with microseconds) and id, root first', () => {
    const segments = parseDottedOrder(`20240501T120000123456Z${ROOT}.20240501T120001000001Z${CHILD.toUpperCase()}`);
    expect(segments).toEqual([
      { time: '2024-05-01T12:00:00.123456Z', id: ROOT },
      { time: '2024-05-01T12:00:01.000001Z', id: CHILD },
    ]);
  });

  it.each([
    ['', 'segment 0'],
    [`20240501T120000Z${ROOT}`, 'segment 0'],
    [`20240501T120000123456Z${ROOT}.x`, 'segment 1'],
    [`20241301T120000123456Z${ROOT}`, 'segment 0'],
    [`20240501T120000123456Znot-a-uuid`, 'segment 0'],
  ])('names the bad segment of %p', (value, where) => {
    expect(parseDottedOrder(value)).toEqual(expect.stringContaining(where));
  });

  it('makes a segment from a start time', () => {
    expect(dottedOrderSegment('2024-05-01T12:00:00.123456Z', ROOT)).toBe(`20240501T120000123456Z${ROOT}`);
  });
});
