import fs from 'node:fs';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { PROTO_LOADER_OPTIONS } from './proto-loader-options';

// A file every deployment of the platform ships, so finding it identifies the right `proto/`.
const MARKER = path.join('grpc', 'health', 'v1', 'health.proto');

/**
 * Finds the workspace's `proto/` directory by walking up from `startDir` (by default this file's
 * directory, which also works from a bundle in `dist/`). Apps whose protos live elsewhere pass
 * their configured `PROTO_DIR` instead of calling this.
 */
export function findProtoDir(startDir: string = __dirname): string {
  let dir = path.resolve(startDir);
  for (;;) {
    const candidate = path.join(dir, 'proto');
    if (fs.existsSync(path.join(candidate, MARKER))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) {
      throw new Error(`No proto/ directory (with ${MARKER}) above ${startDir}; set PROTO_DIR`);
    }
    dir = parent;
  }
}

const cache = new Map<string, grpc.GrpcObject>();

/**
 * Loads one `.proto` file (path relative to `protoDir`, imports resolved from `protoDir`) with the
 * platform's loader options. Parsed once per process and directory.
 */
export function loadProtoPackage(file: string, protoDir: string = findProtoDir()): grpc.GrpcObject {
  const key = `${path.resolve(protoDir)}\0${file}`;
  let loaded = cache.get(key);
  if (!loaded) {
    const definition = protoLoader.loadSync(path.join(protoDir, file), {
      ...PROTO_LOADER_OPTIONS,
      includeDirs: [protoDir],
    });
    loaded = grpc.loadPackageDefinition(definition);
    cache.set(key, loaded);
  }
  return loaded;
}

/** The client constructor of a service by its full name, e.g. `controlplane.v1.Deployments`. */
export function serviceConstructor(loaded: grpc.GrpcObject, fullName: string): grpc.ServiceClientConstructor {
  let node: unknown = loaded;
  for (const part of fullName.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  if (typeof node !== 'function' || !('service' in node)) {
    throw new Error(`Service ${fullName} not found in the loaded protos`);
  }
  return node as grpc.ServiceClientConstructor;
}
