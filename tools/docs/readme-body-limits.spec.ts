import fs from 'node:fs';
import path from 'node:path';
import type { Request, Response } from 'express';
import { bodyLimits, formatBytes, type BodyLimits } from '@platform/http-server';
import { AGENT_SERVER_BODY_LIMITS } from '../../apps/agent-server/src/app';
import { CONTROL_PLANE_BODY_LIMITS } from '../../apps/control-plane/src/app';
import { EXPORT_BODY_LIMITS } from '../../apps/export/src/app';
import { GATEWAY_BODY_LIMITS } from '../../apps/gateway/src/app';
import { TRACING_OTHER_BODY_BYTES, tracingBodyLimits } from '../../apps/tracing/src/app';
import { loadTracingConfig } from '../../apps/tracing/src/config';

const README = fs.readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');

/** The README row that starts with `start`, e.g. "| control plane". */
const row = (start: string) => README.split('\n').find((line) => line.startsWith(`| ${start}`)) ?? `(no README row "${start}")`;

/** The limit the body-limit middleware gives a request for `method path`. */
function appliedLimit(limits: BodyLimits, method: string, routePath: string): number {
  const res = { locals: {} } as Response;
  bodyLimits(limits)({ method, path: routePath } as Request, res, () => undefined);
  return res.locals.bodyLimit as number;
}

// The README's error section lists each route's body limit: it must say what the services enforce.
describe('README body limits', () => {
  const tracing = loadTracingConfig({ INTERNAL_SECRET: 'x'.repeat(16) });
  const tracingLimits = tracingBodyLimits({ multipart: tracing.INGEST_MAX_BODY_BYTES, jsonIngest: tracing.INGEST_JSON_MAX_BODY_BYTES, other: TRACING_OTHER_BODY_BYTES });

  it.each([
    ['gateway admin API', GATEWAY_BODY_LIMITS.defaultBytes],
    ['control plane', CONTROL_PLANE_BODY_LIMITS.defaultBytes],
    ['tracing `POST /api/v1/runs/multipart`', tracing.INGEST_MAX_BODY_BYTES],
    ['tracing `POST /api/v1/runs/batch`', tracing.INGEST_JSON_MAX_BODY_BYTES],
    ['tracing, every other route', TRACING_OTHER_BODY_BYTES],
    ['export', EXPORT_BODY_LIMITS.defaultBytes],
    ['agent server', AGENT_SERVER_BODY_LIMITS.defaultBytes],
  ])('%s: %d bytes', (start, bytes) => {
    expect(row(start)).toContain(`| ${formatBytes(bytes)}`);
  });

  it('names the attachment limit inside the multipart body', () => {
    expect(row('tracing `POST /api/v1/runs/multipart`')).toContain(`each attachment part ${formatBytes(tracing.ATTACHMENT_MAX_BYTES)} (\`ATTACHMENT_MAX_BYTES\``);
  });

  // Each tracing route that takes a body, in the row that names it, with the limit the service applies to it.
  it.each([
    ['POST', '/api/v1/runs/multipart', 'tracing `POST /api/v1/runs/multipart`', '`POST /api/v1/runs/multipart`'],
    ['POST', '/api/v1/runs/batch', 'tracing `POST /api/v1/runs/batch`', '`POST /api/v1/runs/batch`'],
    ['POST', '/api/v1/runs', 'tracing `POST /api/v1/runs/batch`', '`POST /api/v1/runs`'],
    ['PATCH', '/api/v1/runs/00000000-0000-4000-8000-000000000001', 'tracing `POST /api/v1/runs/batch`', '`PATCH /api/v1/runs/{id}`'],
    ['POST', '/api/v1/sessions', 'tracing, every other route', '`/api/v1/sessions*`'],
    ['POST', '/api/v1/runs/query', 'tracing, every other route', '`/api/v1/runs/query`'],
    ['POST', '/api/v2/runs/query', 'tracing, every other route', '`/api/v2/runs/query`'],
    ['POST', '/api/v2/traces/query', 'tracing, every other route', '`/api/v2/traces/query`'],
  ])('tracing %s %s: in the row "%s"', (method, routePath, start, named) => {
    expect(row(start)).toContain(named);
    expect(row(start)).toContain(`| ${formatBytes(appliedLimit(tracingLimits, method, routePath))}`);
  });
});
