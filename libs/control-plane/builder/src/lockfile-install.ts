import fs from 'node:fs/promises';
import path from 'node:path';

/** How the project's own lockfile says to install it. */
export interface LockfileInstall {
  lockfile: 'yarn.lock' | 'pnpm-lock.yaml' | 'package-lock.json' | 'npm-shrinkwrap.json';
  /** A shell command, run in the directory of langgraph.json (the build and a Kubernetes init container alike). */
  command: string;
}

const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

async function read(file: string): Promise<string | undefined> {
  return fs.readFile(file, 'utf8').catch(() => undefined);
}

/** `packageManager` of package.json (`yarn@1.22.22+sha512.…`) when it names `tool` at a plain version. */
async function pinnedVersion(dir: string, tool: string): Promise<string | undefined> {
  try {
    const manifest = JSON.parse((await read(path.join(dir, 'package.json'))) ?? '{}') as { packageManager?: unknown };
    const [name, version] = String(manifest.packageManager ?? '').split('+')[0].split('@');
    return name === tool && VERSION.test(version ?? '') ? version : undefined;
  } catch {
    return undefined;
  }
}

// pnpm's lockfile format → the pnpm major that writes it.
function pnpmForLockfile(text: string): string {
  const major = Number(/^lockfileVersion:\s*'?(\d+)/m.exec(text)?.[1] ?? 9);
  return major >= 9 ? '9' : major >= 6 ? '8' : '7';
}

/**
 * The install the project's lockfile asks for, as the reference's image build picks it: `yarn.lock` → yarn,
 * `pnpm-lock.yaml` → pnpm (frozen), `package-lock.json` → `npm ci`. yarn and pnpm run through npx from the npm
 * registry, at the version `packageManager` pins (else the one the lockfile format belongs to); Yarn 2+ installs
 * into node_modules, which the Agent Server loads from. Undefined: no lockfile.
 */
export async function lockfileInstall(dir: string): Promise<LockfileInstall | undefined> {
  const yarnLock = await read(path.join(dir, 'yarn.lock'));
  if (yarnLock !== undefined) {
    const berry = yarnLock.includes('__metadata:');
    const version = (await pinnedVersion(dir, 'yarn')) ?? (berry ? '4' : '1.22.22');
    const command = Number(version.split('.')[0]) >= 2
      ? `YARN_NODE_LINKER=node-modules YARN_ENABLE_IMMUTABLE_INSTALLS=false npx --yes --package=@yarnpkg/cli-dist@${version} -- yarn install`
      : `npx --yes yarn@${version} install --non-interactive`;
    return { lockfile: 'yarn.lock', command };
  }
  const pnpmLock = await read(path.join(dir, 'pnpm-lock.yaml'));
  if (pnpmLock !== undefined) {
    const version = (await pinnedVersion(dir, 'pnpm')) ?? pnpmForLockfile(pnpmLock);
    return { lockfile: 'pnpm-lock.yaml', command: `npx --yes pnpm@${version} install --frozen-lockfile` };
  }
  for (const lockfile of ['package-lock.json', 'npm-shrinkwrap.json'] as const) {
    if ((await read(path.join(dir, lockfile))) !== undefined) return { lockfile, command: 'npm ci --no-audit --no-fund' };
  }
  return undefined;
}
