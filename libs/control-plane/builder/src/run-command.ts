import { spawn } from 'node:child_process';
import { SUPERVISOR_SOURCE } from './build-supervisor';

export interface CommandOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  timeoutMs: number;
  /** Receives output as it comes (build log). */
  onOutput?: (chunk: string) => void;
  shell?: boolean;
}

export interface CommandResult {
  code: number | null;
  output: string;
  timedOut: boolean;
  aborted: boolean;
}

const KEEP_OUTPUT = 64 * 1024;

/**
 * Runs a command in its own process group, under a supervisor that kills the group when the control plane dies
 * (see build-supervisor), and waits for it; an abort or the timeout kills the whole group (npm and shells start
 * children of their own). Output is kept (the last 64 KB) for error messages.
 */
export function runCommand(command: string, args: string[], options: CommandOptions): Promise<CommandResult> {
  return new Promise((resolve) => {
    let output = '';
    let timedOut = false;
    let aborted = false;
    const child = spawn(process.execPath, ['-e', SUPERVISOR_SOURCE, JSON.stringify({ command, args, shell: options.shell ?? false })], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      // stdin: the supervisor's lifeline (never written; it closes when this process dies).
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    // The supervisor gone first: nothing is written to it, so nothing is lost.
    child.stdin.on('error', () => undefined);
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const onAbort = () => {
      aborted = true;
      kill();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs);
    options.signal.addEventListener('abort', onAbort, { once: true });
    if (options.signal.aborted) onAbort();
    const collect = (data: Buffer) => {
      const text = data.toString('utf8');
      options.onOutput?.(text);
      output = (output + text).slice(-KEEP_OUTPUT);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const finish = (code: number | null) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      resolve({ code, output, timedOut, aborted });
    };
    child.on('error', (err) => {
      output += `\n${err.message}`;
      finish(null);
    });
    child.on('close', (code) => finish(code));
  });
}

/** The last lines of a command's output, for a status message. */
export function tail(output: string, lines = 8): string {
  return output.trim().split('\n').slice(-lines).join('\n');
}
