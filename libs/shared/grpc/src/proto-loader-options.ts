import type { Options } from '@grpc/proto-loader';

/**
 * The one set of `@grpc/proto-loader` options of the platform, used both to generate the contract
 * types (`npm run proto:gen`) and to load the protos at run time, so the types match the objects.
 * int64 values come out as decimal strings, enums as their names, absent scalars as their defaults
 * (proto3 `optional` fields stay absent), and `optional` fields as virtual oneofs.
 */
export const PROTO_LOADER_OPTIONS = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
} as const satisfies Options;
