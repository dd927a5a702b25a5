import { parseStoreSettings } from './store-config';

describe("langgraph.json's store section", () => {
  it('defaults to no expiry, refresh on read and a five-minute sweep', () => {
    expect(parseStoreSettings(undefined)).toEqual({ ttl: { refreshOnRead: true, defaultTtlMinutes: undefined }, sweepIntervalMs: 300_000, indexRequested: false });
  });

  it('reads ttl and notices an index', () => {
    const settings = parseStoreSettings({ ttl: { refresh_on_read: false, default_ttl: 1440, sweep_interval_minutes: 10 }, index: { dims: 1536, embed: 'openai:text-embedding-3-small' } });
    expect(settings).toEqual({ ttl: { refreshOnRead: false, defaultTtlMinutes: 1440 }, sweepIntervalMs: 600_000, indexRequested: true });
  });

  it('names a bad key', () => {
    expect(() => parseStoreSettings({ ttl: { default_ttl: -1 } })).toThrow(/store\.ttl\.default_ttl/);
  });
});
