import { z } from 'zod';

/** A configuration that failed validation; the message names every offending variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

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
      return value === undefined ? `${name}: ${issue.message} (unset)` : `${name}: ${issue.message} (got "${value}")`;
    }),
  );
}
