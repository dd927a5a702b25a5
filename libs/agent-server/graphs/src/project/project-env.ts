import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { InputError } from '@platform/errors';
import type { LangGraphConfig } from './langgraph-config.schema';

export interface ProjectEnv {
  env: Record<string, string>;
  warnings: string[];
  /**
   * The env file langgraph.json names, when it is missing: worth a warning in dev; in a deployment the normal case
   * (git-ignored, or left out by `agent-platform deploy`, which sends its variables as the deployment's secrets).
   */
  missingEnvFile?: string;
}

/** What a start says about a missing env file: a warning in dev, a note in a deployment. */
export function missingEnvFileNote(file: string, dev: boolean): { level: 'warn' | 'info'; message: string } {
  return dev
    ? { level: 'warn', message: `env file ${file} not found; using the deployment's variables only` }
    : { level: 'info', message: `env file ${file} is not part of the deployment; its variables come from the deployment's secrets` };
}

/** The variables `langgraph.json` names: an object, or a `.env` file relative to the config file. */
export function readProjectEnv(config: LangGraphConfig, dir: string): ProjectEnv {
  if (config.env === undefined) return { env: {}, warnings: [] };
  if (typeof config.env === 'object') {
    return { env: Object.fromEntries(Object.entries(config.env).map(([key, value]) => [key, String(value)])), warnings: [] };
  }
  const file = path.resolve(dir, config.env);
  // A .env file is usually git-ignored, so a cloned repository often lacks it; its variables then come from
  // the deployment's secrets instead.
  if (!existsSync(file)) return { env: {}, warnings: [], missingEnvFile: config.env };
  try {
    const parsed = parseEnv(readFileSync(file, 'utf8'));
    return { env: Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => e[1] !== undefined)), warnings: [] };
  } catch (err) {
    throw new InputError(`langgraph.json: cannot read env file ${config.env}: ${(err as Error).message}`);
  }
}

/**
 * Puts the project's variables into `process.env` before graph modules load (they read their API keys from
 * there). Variables already set win: the deployment's secrets override the repository's defaults. This is
 * the one place the Agent Server writes `process.env`.
 */
export function applyProjectEnv(env: Record<string, string>): void {
  for (const [key, value] of Object.entries(env)) {
    if (process.env[key] === undefined) process.env[key] = value;
  }
}
