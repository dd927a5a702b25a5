import { randomBytes } from 'node:crypto';
import { SecretBox, encryptionKey } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox(encryptionKey('a passphrase of some length'));

  it('round-trips and never stores the plain text', () => {
    const sealed = box.seal('ghp_secret-token');
    expect(sealed).not.toContain('ghp_secret');
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(box.open(sealed)).toBe('ghp_secret-token');
    expect(box.seal('x')).not.toBe(box.seal('x'));
  });

  it('refuses tampered values and values of another key', () => {
    const sealed = box.seal('value');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('other').toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow(/unknown format or key/);
  });

  it('opens values sealed under a previous key after rotation', () => {
    const old = randomBytes(32);
    const sealed = new SecretBox(old).seal('kept');
    expect(new SecretBox(randomBytes(32), [old]).open(sealed)).toBe('kept');
  });

  it('takes a base64 key as is and stretches text', () => {
    const raw = randomBytes(32);
    expect(encryptionKey(raw.toString('base64')).equals(raw)).toBe(true);
    expect(encryptionKey('0123456789abcdef')).toHaveLength(32);
    expect(() => encryptionKey('short')).toThrow();
  });
});
