// Runs the `agent-platform` command as a user does (its bin, a child process) and watches what it prints.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const CLI_BIN = path.resolve(__dirname, '../bin/agent-platform.cjs');
const EXAMPLE = path.resolve(__dirname, '../../../examples/react-agent');

export interface CliProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the match once the output matches `pattern`; rejects when the command exits first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited: Promise<number>;
  stop(): Promise<number>;
}

export function runCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): CliProcess {
  const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    text += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  let code: number | undefined;
  const exited = new Promise<number>((resolve) =>
    child.on('exit', (c, signal) => {
      code = c ?? (signal ? 1 : 0);
      for (const listener of listeners) listener();
      resolve(code);
    }),
  );
  return {
    child,
    output: () => text,
    exited,
    waitFor(pattern, timeoutMs = 90_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => done(new Error(`timed out waiting for ${pattern}; output:\n${text.slice(-4000)}`)), timeoutMs);
        const check = () => {
          const match = text.match(pattern);
          if (match) return done(undefined, match);
          if (code !== undefined) done(new Error(`exited with ${code} before ${pattern}; output:\n${text.slice(-4000)}`));
        };
        function done(err?: Error, match?: RegExpMatchArray) {
          clearTimeout(timer);
          listeners.delete(check);
          if (err) reject(err);
          else resolve(match as RegExpMatchArray);
        }
        listeners.add(check);
        check();
      });
    },
    async stop() {
      if (code === undefined) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A scratch copy of examples/react-agent (the user's own project), removed by the returned function. */
export function scratchProject(): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-platform-cli-'));
  fs.cpSync(EXAMPLE, dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}node_modules`) && !src.includes('.langgraph_api') });
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
