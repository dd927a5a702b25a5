import { decodeSeq, endSeq, eventSeq, isProtocolSeq } from './protocol-seq';

describe('protocol seq', () => {
  it('orders a run start, its events, their parts and its end, run after run, within safe integers', () => {
    const order = [eventSeq(0, -1, 0), eventSeq(0, 0, 0), eventSeq(0, 0, 5), eventSeq(0, 1, 0), endSeq(0, 0), endSeq(0, 63), eventSeq(1, -1, 0), endSeq(2_000_000, 63)];
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(new Set(order).size).toBe(order.length);
    expect(order.every(isProtocolSeq)).toBe(true);
  });

  it('decodes the run a seq belongs to', () => {
    expect(decodeSeq(eventSeq(7, 41, 3))).toEqual({ ordinal: 7, slot: 42, sub: 3 });
    expect(decodeSeq(endSeq(3, 2)).ordinal).toBe(3);
    expect(isProtocolSeq(-1)).toBe(false);
    expect(isProtocolSeq(1.5)).toBe(false);
    expect(isProtocolSeq(2 ** 53)).toBe(false);
  });
});
