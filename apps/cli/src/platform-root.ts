import path from 'node:path';

/** The platform's checkout: its node_modules serve the Agent Server, as for the control plane's local driver. */
export const PLATFORM_ROOT = path.resolve(__dirname, '../../..');

/** The Agent Server's entry, the one the local driver starts for every revision (AGENT_SERVER_COMMAND). */
export const AGENT_SERVER_COMMAND = [path.join(PLATFORM_ROOT, 'node_modules/.bin/tsx'), path.join(PLATFORM_ROOT, 'apps/agent-server/src/main.ts')];
