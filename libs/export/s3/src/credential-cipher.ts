import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/** Parses a 32-byte key given as 64 hex characters or base64/base64url; throws a message naming the problem. */
export function parseEncryptionKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new Error('must be 32 bytes, as 64 hex characters or base64');
  return key;
}

// Short key fingerprint stored with each ciphertext so a rotated key can still decrypt older values.
function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/**
 * AES-256-GCM for secrets at rest. Values are `v1:<key id>:<iv>:<tag>:<ciphertext>` (base64url parts),
 * bound to `context` (e.g. `destination:<id>`) as associated data, so a value copied to another row
 * does not decrypt. Encrypts with the first key; decrypts with whichever key matches the stored key id.
 */
export class CredentialCipher {
  private readonly keys: Map<string, Buffer>;
  private readonly current: { id: string; key: Buffer };

  constructor(key: Buffer, previousKeys: Buffer[] = []) {
    if (key.length !== 32) throw new Error('AES-256-GCM needs a 32-byte key');
    this.current = { id: keyId(key), key };
    this.keys = new Map([...previousKeys, key].map((k) => [keyId(k), k]));
  }

  encrypt(plaintext: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
    return [VERSION, this.current.id, ...parts].join(':');
  }

  decrypt(value: string, context: string): string {
    const [version, id, iv, tag, body] = value.split(':');
    if (version !== VERSION || body === undefined) throw new Error('Unrecognised encrypted value');
    const key = this.keys.get(id);
    if (!key) throw new Error(`No encryption key with id ${id} is configured`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }

  encryptJson(value: unknown, context: string): string {
    return this.encrypt(JSON.stringify(value), context);
  }

  decryptJson<T>(value: string, context: string): T {
    return JSON.parse(this.decrypt(value, context)) as T;
  }
}
