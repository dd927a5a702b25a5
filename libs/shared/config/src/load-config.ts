import { z } from 'zod';

/** A configuration that failed validation; the message names every offending variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

/** Variables whose values never go into an error message (logs, deploy logs): secrets, keys, tokens, passwords. */
const SECRET_NAME = /SECRET|KEY|TOKEN|PASSWORD/i;

/**
 * Parses environment variables with a zod object schema whose keys are the variable names.
 * Empty strings count as unset, so `FOO=` falls back to the default.
 */
export function loadConfig<S extends z.ZodObject>(schema: S, env: Env = process.env): z.infer<S> {
  const cleaned: Env = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    cleaned[key] = value === undefined || value.trim() === '' ? undefined : value;
  }
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => {
      const name = issue.path.join('.') || '(config)';
      const value = cleaned[String(issue.path[0])];
      if (value === undefined) return `${name}: ${issue.message} (unset)`;
      return SECRET_NAME.test(name) ? `${name}: ${issue.message} (got ${value.length} characters)` : `${name}: ${issue.message} (got "${value}")`;
    }),
  );
}
