// The services that own a Prisma schema, and how the tools run the Prisma CLI for them.
import { spawn } from 'node:child_process';
import path from 'node:path';

export const workspaceRoot = path.resolve(__dirname, '..', '..');

export const services = ['gateway', 'control-plane', 'agent-server', 'tracing', 'export'] as const;
export type Service = (typeof services)[number];

export const defaultDatabaseUrl = 'postgres://postgres@127.0.0.1:5432/postgres';

export function isService(value: string | undefined): value is Service {
  return services.includes(value as Service);
}

export const schemaPath = (service: Service) => path.join(workspaceRoot, 'prisma', service, 'schema.prisma');
export const migrationsPath = (service: Service) => path.join(workspaceRoot, 'prisma', service, 'migrations');
const configPath = (service: Service) => path.join(workspaceRoot, 'prisma', service, 'prisma.config.ts');

export interface PrismaResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `prisma <args> --config prisma/<service>/prisma.config.ts`. The environment keeps the CLI off
 * the network: no update check or telemetry, and an engine mirror that refuses at once, so an
 * attempted engine download fails loudly instead of hanging on a machine without internet.
 */
export function runPrisma(service: Service, args: string[], env: NodeJS.ProcessEnv = {}): Promise<PrismaResult> {
  const bin = path.join(workspaceRoot, 'node_modules', 'prisma', 'build', 'index.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args, '--config', configPath(service)], {
      cwd: workspaceRoot,
      env: {
        ...process.env,
        CHECKPOINT_DISABLE: '1',
        PRISMA_HIDE_UPDATE_MESSAGE: '1',
        PRISMA_ENGINES_MIRROR: process.env['PRISMA_ENGINES_MIRROR'] ?? 'http://127.0.0.1:9/no-engine-downloads',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}
