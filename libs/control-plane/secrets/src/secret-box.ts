import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;

function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/**
 * A 32-byte key from configuration: base64 of exactly 32 bytes is used as is; any other text (at least 16
 * characters) is stretched with HKDF, so an operator can pass a passphrase or the internal secret.
 */
export function encryptionKey(text: string, purpose = 'control-plane secrets'): Buffer {
  const decoded = Buffer.from(text, 'base64');
  if (decoded.length === 32 && decoded.toString('base64').replace(/=+$/, '') === text.replace(/=+$/, '')) return decoded;
  if (text.length < 16) throw new Error('an encryption key must be 32 bytes in base64 or a text of at least 16 characters');
  return Buffer.from(hkdfSync('sha256', text, 'agent-platform', purpose, 32));
}

/**
 * Encrypts values at rest with AES-256-GCM. The sealed form `v1.<key id>.<iv>.<ciphertext>.<tag>` names its key,
 * so values sealed under a previous key still open after a rotation (pass the old keys as `previous`).
 */
export class SecretBox {
  private readonly keys = new Map<string, Buffer>();
  private readonly current: string;

  constructor(key: Buffer, previous: Buffer[] = []) {
    for (const k of [key, ...previous]) {
      if (k.length !== 32) throw new Error('an encryption key must be 32 bytes');
      this.keys.set(keyId(k), k);
    }
    this.current = keyId(key);
  }

  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.current) as Buffer, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, this.current, iv.toString('base64url'), data.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
  }

  /** The plain text; throws when the value was not sealed by one of this box's keys or was tampered with. */
  open(sealed: string): string {
    const [version, id, iv, data, tag] = sealed.split('.');
    const key = this.keys.get(id);
    if (version !== VERSION || !key || iv === undefined || data === undefined || tag === undefined) {
      throw new Error('cannot decrypt: unknown format or key');
    }
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}
