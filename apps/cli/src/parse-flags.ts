import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Parses a command's flags strictly: an unknown flag or a missing value is a UsageError naming it. */
export function parseFlags<O extends Options>(command: string, args: string[], options: O) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    throw new UsageError(`${command}: ${(err as Error).message.replace(/\. To specify a positional argument.*$/s, '')} (see --help)`);
  }
}
