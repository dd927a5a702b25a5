import { createHash, timingSafeEqual } from 'node:crypto';
import type * as grpc from '@grpc/grpc-js';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** True when the metadata carries `authorization: Bearer <token>`; compared in constant time. */
export function hasBearerToken(metadata: grpc.Metadata, token: string): boolean {
  const header = metadata.get('authorization')[0];
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) return false;
  // Hashing first gives equal lengths, which timingSafeEqual requires, without leaking the length.
  return timingSafeEqual(digest(header.slice('Bearer '.length)), digest(token));
}
