import net from 'node:net';
import { busyPorts, portPlan } from './launch-ports';

describe('the ports npm start gives its services', () => {
  it('are fixed offsets from GATEWAY_PORT (default 8080), so a worker started by hand finds its peers after a restart', () => {
    const plan = portPlan({});
    expect(plan.ports).toEqual({ gateway: 8080, 'control-plane': 8081, tracing: 8082, export: 8083, 'export-worker': 8084, 'agent-server': 8085 });
    expect(plan.grpcPorts).toEqual({ 'control-plane': 8091, tracing: 8092, export: 8093 });
    expect(portPlan({ GATEWAY_PORT: '9000' }).grpcPorts.tracing).toBe(9012);
  });

  it('each overridable by <SERVICE>_PORT / <SERVICE>_GRPC_PORT; GATEWAY_PORT=0 or a 0 override: any free port', () => {
    const plan = portPlan({ GATEWAY_PORT: '9000', TRACING_GRPC_PORT: '7001', EXPORT_WORKER_PORT: '0' });
    expect(plan.grpcPorts).toEqual({ 'control-plane': 9011, tracing: 7001, export: 9013 });
    expect(plan.ports['export-worker']).toBe(0);
    expect(Object.values(portPlan({ GATEWAY_PORT: '0' }).ports)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(() => portPlan({ EXPORT_GRPC_PORT: 'abc' })).toThrow(/EXPORT_GRPC_PORT/);
  });

  it('names a port that is in use, and the variable that moves it', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const taken = (server.address() as net.AddressInfo).port;
    try {
      const busy = await busyPorts('127.0.0.1', portPlan({ GATEWAY_PORT: '0', TRACING_GRPC_PORT: String(taken) }));
      expect(busy).toEqual([`port ${taken} (tracing gRPC; set TRACING_GRPC_PORT to move it) is in use`]);
    } finally {
      server.close();
    }
  });
});
