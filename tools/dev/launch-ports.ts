// The ports `npm start` gives its services: fixed offsets from GATEWAY_PORT (default 8080), each overridable, so an
// export worker or an Agent Server started by hand keeps reaching its peers across a restart of the platform.
import net from 'node:net';
import { z } from 'zod';
import { loadConfig, port } from '@platform/config';
import type { ServiceName } from './platform';

type GrpcService = 'control-plane' | 'tracing' | 'export';

/** HTTP: GATEWAY_PORT + offset; gRPC: GATEWAY_PORT + 10 + offset. */
export const HTTP_PORT_OFFSETS: Record<ServiceName, number> = { gateway: 0, 'control-plane': 1, tracing: 2, export: 3, 'export-worker': 4, 'agent-server': 5 };
export const GRPC_PORT_OFFSETS: Record<GrpcService, number> = { 'control-plane': 11, tracing: 12, export: 13 };

const variable = (service: string, grpc = false) => `${service.toUpperCase().replaceAll('-', '_')}${grpc ? '_GRPC' : ''}_PORT`;

export interface PortPlan {
  ports: Record<ServiceName, number>;
  grpcPorts: Record<GrpcService, number>;
  /** The variable that sets each port, for messages: `CONTROL_PLANE_GRPC_PORT`, ... */
  names: { port: number; name: string; what: string }[];
}

/** Each service's ports from the environment: `<SERVICE>_PORT`, `<SERVICE>_GRPC_PORT`, else the offsets. GATEWAY_PORT=0: any free ports. */
export function portPlan(env: Record<string, string | undefined>): PortPlan {
  const schema = z.object(
    Object.fromEntries([
      ['GATEWAY_PORT', port(8080)],
      ...Object.keys(HTTP_PORT_OFFSETS).filter((s) => s !== 'gateway').map((s) => [variable(s), port(0).optional()]),
      ...Object.keys(GRPC_PORT_OFFSETS).map((s) => [variable(s, true), port(0).optional()]),
    ]),
  );
  const parsed = loadConfig(schema, env) as Record<string, number | undefined>;
  const base = parsed.GATEWAY_PORT as number;
  // Set (0 included: any free port) wins; unset follows GATEWAY_PORT.
  const pick = (name: string, offset: number) => (env[name] !== undefined && env[name] !== '' ? (parsed[name] as number) : base === 0 ? 0 : base + offset);
  const ports = Object.fromEntries(Object.entries(HTTP_PORT_OFFSETS).map(([s, o]) => [s, pick(s === 'gateway' ? 'GATEWAY_PORT' : variable(s), o)])) as Record<ServiceName, number>;
  const grpcPorts = Object.fromEntries(Object.entries(GRPC_PORT_OFFSETS).map(([s, o]) => [s, pick(variable(s, true), o)])) as Record<GrpcService, number>;
  const names = [
    ...Object.entries(ports).map(([s, p]) => ({ port: p, name: s === 'gateway' ? 'GATEWAY_PORT' : variable(s), what: `${s} HTTP` })),
    ...Object.entries(grpcPorts).map(([s, p]) => ({ port: p, name: variable(s, true), what: `${s} gRPC` })),
  ];
  return { ports, grpcPorts, names };
}

function portIsFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** The planned ports something else listens on now, as lines naming the variable that moves each. */
export async function busyPorts(host: string, plan: PortPlan): Promise<string[]> {
  const busy: string[] = [];
  for (const { port, name, what } of plan.names) {
    if (port !== 0 && !(await portIsFree(host, port))) busy.push(`port ${port} (${what}; set ${name} to move it) is in use`);
  }
  return busy;
}
