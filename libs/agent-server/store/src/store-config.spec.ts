import { parseStoreSettings } from './store-config';

describe("langgraph.json's store section", () => {
  it('defaults to no expiry, refresh on read, a five-minute sweep and no semantic search', () => {
    expect(parseStoreSettings(undefined)).toEqual({ ttl: { refreshOnRead: true, defaultTtlMinutes: undefined }, sweepIntervalMs: 300_000 });
    expect(parseStoreSettings({ index: null }).index).toBeUndefined();
  });

  it('reads ttl and the index, whose fields default to the whole value', () => {
    const settings = parseStoreSettings({ ttl: { refresh_on_read: false, default_ttl: 1440, sweep_interval_minutes: 10 }, index: { dims: 1536, embed: 'openai:text-embedding-3-small' } });
    expect(settings).toEqual({
      ttl: { refreshOnRead: false, defaultTtlMinutes: 1440 },
      sweepIntervalMs: 600_000,
      index: { embed: 'openai:text-embedding-3-small', dims: 1536, fields: ['$'] },
    });
    expect(parseStoreSettings({ index: { dims: 8, embed: './embed.ts:embed', fields: ['text', 'tags[*]'] } }).index).toEqual({ embed: './embed.ts:embed', dims: 8, fields: ['text', 'tags[*]'] });
  });

  it.each([
    [{ ttl: { default_ttl: -1 } }, /store\.ttl\.default_ttl/],
    [{ index: { embed: 'openai:x' } }, /store\.index\.dims/],
    [{ index: { dims: 1.5, embed: 'openai:x' } }, /store\.index\.dims/],
    [{ index: { dims: 8, embed: '' } }, /store\.index\.embed/],
    [{ index: { dims: 8, embed: 'openai:x', fields: [] } }, /store\.index\.fields/],
  ])('names a bad key: %j', (section, message) => {
    expect(() => parseStoreSettings(section)).toThrow(message);
  });
});
