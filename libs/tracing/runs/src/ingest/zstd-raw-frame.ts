/**
 * A valid zstd frame holding `data` in raw (stored) blocks: Node 20 has no zstd compressor, and tests must not need
 * one to send zstd bodies (nor do benchmarks and other tools). Frame layout per RFC 8878: magic, a single-segment header with the content size, blocks.
 */
export function zstdRawFrame(data: Uint8Array): Buffer {
  const BLOCK = 128 * 1024;
  const parts: Buffer[] = [];
  const header = Buffer.alloc(4 + 1 + 8);
  header.writeUInt32LE(0xfd2fb528, 0);
  header[4] = (3 << 6) | (1 << 5); // 8-byte content size, single segment
  header.writeBigUInt64LE(BigInt(data.length), 5);
  parts.push(header);
  let offset = 0;
  do {
    const size = Math.min(BLOCK, data.length - offset);
    const last = offset + size >= data.length ? 1 : 0;
    const block = Buffer.alloc(3);
    block.writeUIntLE(last | (0 << 1) | (size << 3), 0, 3);
    parts.push(block, Buffer.from(data.subarray(offset, offset + size)));
    offset += size;
  } while (offset < data.length);
  return Buffer.concat(parts);
}
