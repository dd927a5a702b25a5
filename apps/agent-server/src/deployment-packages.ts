import path from 'node:path';
import { resolveSharedPackages, shareDeploymentPackages, unsupportedMessage, unsupportedPackages, type SharedPackage } from '@platform/langgraph-packages';
import type { Logger } from '@platform/logging';

// The platform's root: where this server's own packages are installed (tsx is one of them, and never shared).
function platformRoot(): string {
  return path.resolve(path.dirname(require.resolve('tsx/package.json')), '..', '..');
}

/**
 * One copy of LangGraph.js per deployment: picks the deployment's own @langchain/langgraph, core, checkpoint, sdk
 * and langsmith where its install has them, refuses versions outside the supported ranges, and makes this server
 * load those same copies. Must run before anything imports them (main.ts loads the server afterwards).
 */
export function useDeploymentPackages(langgraphConfigPath: string, logger: Logger): SharedPackage[] {
  const projectDir = path.dirname(path.resolve(langgraphConfigPath));
  const packages = resolveSharedPackages(projectDir, platformRoot());
  const unsupported = unsupportedPackages(packages);
  if (unsupported.length) throw new Error(unsupportedMessage(unsupported));
  shareDeploymentPackages(projectDir, packages);
  logger.info({ packages: Object.fromEntries(packages.map((p) => [p.name, `${p.version} (${p.origin})`])) }, 'LangGraph.js packages');
  return packages;
}
