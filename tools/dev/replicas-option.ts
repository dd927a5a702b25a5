import { REPLICATED_SERVICES, type ReplicatedService } from './platform';

/** A bad --replicas or REPLICAS: printed as the launcher prints a bad variable (its message alone). */
class ReplicasError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * `--replicas agent-server=2,export-worker=3` (or REPLICAS): how many instances of each replicated service
 * `npm start` runs. Errors name the flag and what is wrong.
 */
export function parseReplicas(value: string | undefined, flag = '--replicas'): Partial<Record<ReplicatedService, number>> {
  const replicas: Partial<Record<ReplicatedService, number>> = {};
  if (!value) return replicas;
  for (const part of value.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [name, count, ...rest] = part.split('=');
    if (!(REPLICATED_SERVICES as readonly string[]).includes(name) || rest.length > 0) {
      throw new ReplicasError(`${flag}: '${part}' is not <service>=<count> for one of ${REPLICATED_SERVICES.join(', ')}`);
    }
    const n = Number(count);
    if (!Number.isInteger(n) || n < 1 || n > 16) throw new ReplicasError(`${flag}: ${name} needs a count from 1 to 16, got '${count ?? ''}'`);
    replicas[name as ReplicatedService] = n;
  }
  return replicas;
}

/** The `--replicas` value from the command line (`--replicas x` or `--replicas=x`), else from REPLICAS. */
export function replicasArgument(argv: string[], env: Record<string, string | undefined>): { value?: string; flag: string } {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--replicas') {
      if (argv[i + 1] === undefined) throw new ReplicasError('--replicas: needs a value such as agent-server=2,export-worker=3');
      return { value: argv[i + 1], flag: '--replicas' };
    }
    if (argv[i].startsWith('--replicas=')) return { value: argv[i].slice('--replicas='.length), flag: '--replicas' };
    throw new ReplicasError(`${argv[i]}: unknown option (npm start takes --replicas <service>=<count>,...)`);
  }
  return { value: env.REPLICAS, flag: 'REPLICAS' };
}
