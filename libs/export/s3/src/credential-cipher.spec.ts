import { randomBytes } from 'node:crypto';
import { CredentialCipher, parseEncryptionKey } from './credential-cipher';

describe('CredentialCipher', () => {
  const key = randomBytes(32);
  const cipher = new CredentialCipher(key);
  const secret = { access_key_id: 'AKIAEXAMPLE', secret_access_key: 'wJalrXUtnFEMI/K7MDENG' };

  it('round-trips and never holds the plaintext', () => {
    const stored = cipher.encryptJson(secret, 'destination:1');
    expect(stored).toMatch(/^v1:[0-9a-f]{8}:/);
    expect(stored).not.toContain('AKIAEXAMPLE');
    expect(stored).not.toContain(Buffer.from('AKIAEXAMPLE').toString('base64'));
    expect(cipher.decryptJson(stored, 'destination:1')).toEqual(secret);
  });

  it('uses a fresh IV per value', () => {
    expect(cipher.encrypt('x', 'c')).not.toBe(cipher.encrypt('x', 'c'));
  });

  it('refuses another context, a tampered value or a wrong key', () => {
    const stored = cipher.encrypt('hello', 'destination:1');
    expect(() => cipher.decrypt(stored, 'destination:2')).toThrow();
    const parts = stored.split(':');
    parts[4] = Buffer.from('jello').toString('base64url');
    expect(() => cipher.decrypt(parts.join(':'), 'destination:1')).toThrow();
    expect(() => new CredentialCipher(randomBytes(32)).decrypt(stored, 'destination:1')).toThrow(/No encryption key/);
  });

  it('decrypts values of a previous key after rotation', () => {
    const stored = cipher.encrypt('old', 'c');
    const rotated = new CredentialCipher(randomBytes(32), [key]);
    expect(rotated.decrypt(stored, 'c')).toBe('old');
    expect(rotated.encrypt('new', 'c').split(':')[1]).not.toBe(stored.split(':')[1]);
  });

  it('parses hex and base64 keys of 32 bytes only', () => {
    expect(parseEncryptionKey(key.toString('hex'))).toEqual(key);
    expect(parseEncryptionKey(key.toString('base64'))).toEqual(key);
    expect(parseEncryptionKey(key.toString('base64url'))).toEqual(key);
    expect(() => parseEncryptionKey('short')).toThrow(/32 bytes/);
  });
});
