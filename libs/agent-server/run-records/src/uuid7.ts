import { randomFillSync } from 'node:crypto';

let lastMs = 0;
let counter = 0;
// Random bytes are drawn 4 KiB at a time: one syscall for 256 ids.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomBytes16(): Buffer {
  if (poolOffset + 16 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = Buffer.from(pool.subarray(poolOffset, poolOffset + 16));
  poolOffset += 16;
  return bytes;
}

/**
 * A version-7 UUID (RFC 9562): 48 bits of Unix milliseconds, then a 12-bit counter that keeps ids made in the
 * same millisecond in creation order, then random bits. Run ids sort by creation time.
 */
export function uuid7(now = Date.now()): string {
  if (now <= lastMs) {
    counter = (counter + 1) & 0xfff;
    if (counter === 0) lastMs += 1;
  } else {
    lastMs = now;
    counter = 0;
  }
  const bytes = randomBytes16();
  bytes.writeUIntBE(lastMs, 0, 6);
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
