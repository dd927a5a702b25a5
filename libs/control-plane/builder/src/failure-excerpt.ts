// Lines that carry a tool's explanation of a failure: npm's `npm error`/`npm ERR!` block (an ERESOLVE conflict is
// all such lines), yarn's `error …`, pnpm's `ERR_PNPM_…`, Yarn 2+'s `YN…` errors, TypeScript's `error TS…`, and
// any `SomethingError:` / `Error:` line.
const EXPLAINING = [
  /^npm (error|ERR!)/,
  /^error\b/i,
  /ERR_PNPM_|^\s*ERROR\b/,
  /➤ YN\d{4}: .*(error|fail|✘)/i,
  /\berror TS\d+:/,
  /\b[A-Z]?\w*Error\b:/,
];
// eslint-disable-next-line no-control-regex -- terminal colour codes in tool output
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
const MAX_LINES = 60;
const MAX_CHARS = 6_000;

/**
 * What a status message shows of a failed command's output: the lines that explain the failure, in order (e.g.
 * the whole ERESOLVE block), or the last lines when no line reads as an explanation; bounded in size.
 */
export function failureExcerpt(output: string, fallbackLines = 8): string {
  const lines = output.replace(ANSI, '').split(/\r?\n/).map((l) => l.trimEnd());
  const explaining = lines.filter((line) => EXPLAINING.some((pattern) => pattern.test(line)));
  const picked = explaining.length ? explaining : lines.filter((l) => l.trim()).slice(-fallbackLines);
  const kept = picked.slice(0, MAX_LINES);
  let text = kept.join('\n');
  if (text.length > MAX_CHARS) text = `${text.slice(0, MAX_CHARS)}…`;
  const more = picked.length - kept.length;
  return more > 0 ? `${text}\n… (${more} more lines in the build log)` : text;
}
