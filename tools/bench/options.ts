// Command-line options of the benchmark scripts: `--name=value`.

/** The value of `--name=value`, else `fallback`. */
export function option(name: string, fallback: string): string {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg ? arg.slice(name.length + 3) : fallback;
}

/** A positive integer option; anything else stops the script with a message naming the option. */
export function intOption(name: string, fallback: number): number {
  const value = Number(option(name, String(fallback)));
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
}
