import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key';

describe('API keys', () => {
  it('generates distinct, well-formed LangSmith-shaped keys', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey()));
    expect(keys.size).toBe(200);
    for (const key of keys) {
      expect(key).toMatch(/^lsv2_sk_[0-9a-f]{32}_[0-9a-f]{10}$/);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
    expect(generateApiKey('pt')).toMatch(/^lsv2_pt_/);
  });

  it('rejects keys with a wrong checksum or shape', () => {
    const key = generateApiKey();
    const flipped = key.slice(0, -1) + (key.endsWith('0') ? '1' : '0');
    expect(isWellFormedApiKey(flipped)).toBe(false);
    expect(isWellFormedApiKey('')).toBe(false);
    expect(isWellFormedApiKey('lsv2_sk_short_123')).toBe(false);
    expect(isWellFormedApiKey(key.toUpperCase())).toBe(false);
  });

  it('hashes with sha256 deterministically, never storing the key', () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).toBe(hashApiKey(key));
    expect(hashApiKey(key)).not.toContain(key.slice(8, 40));
    expect(hashApiKey(generateApiKey())).not.toBe(hashApiKey(key));
    // A known vector, so a change of algorithm (which would lock every user out) fails loudly.
    expect(hashApiKey('lsv2_sk_00000000000000000000000000000000_0000000000')).toBe(
      'e9a6e00e2c5fc52e73ecc2bd7c4d9b98f0bcd60740831af4f4d4ed786dce71ad',
    );
  });

  it('shows a short prefix only', () => {
    const key = generateApiKey();
    expect(displayPrefix(key)).toBe(key.slice(0, 14));
    expect(displayPrefix(key).length).toBeLessThan(key.length / 2);
  });
});
