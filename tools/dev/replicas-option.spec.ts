import { parseReplicas, replicasArgument } from './replicas-option';

describe('npm start --replicas', () => {
  it('reads <service>=<count> pairs from the flag or REPLICAS', () => {
    expect(parseReplicas('agent-server=2,export-worker=3')).toEqual({ 'agent-server': 2, 'export-worker': 3 });
    expect(parseReplicas(undefined)).toEqual({});
    expect(replicasArgument(['--replicas', 'export-worker=2'], {})).toEqual({ value: 'export-worker=2', flag: '--replicas' });
    expect(replicasArgument(['--replicas=agent-server=2'], {})).toEqual({ value: 'agent-server=2', flag: '--replicas' });
    expect(replicasArgument([], { REPLICAS: 'agent-server=2' })).toEqual({ value: 'agent-server=2', flag: 'REPLICAS' });
  });

  it('names the flag and what is wrong', () => {
    expect(() => parseReplicas('gateway=2')).toThrow("--replicas: 'gateway=2' is not <service>=<count> for one of agent-server, export-worker");
    expect(() => parseReplicas('export-worker=0', 'REPLICAS')).toThrow("REPLICAS: export-worker needs a count from 1 to 16, got '0'");
    expect(() => parseReplicas('export-worker')).toThrow(/export-worker needs a count/);
    expect(() => replicasArgument(['--replica', 'x'], {})).toThrow('--replica: unknown option');
    expect(() => replicasArgument(['--replicas'], {})).toThrow(/--replicas: needs a value/);
  });
});
