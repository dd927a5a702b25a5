import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A git repository on disk for build tests: files in, commits out. */
export interface GitRepo {
  dir: string;
  /** `file://` URL of the repository. */
  url: string;
  /** Writes files (relative path → content; null deletes), commits them on the current branch, returns the SHA. */
  commit(files: Record<string, string | null>, message?: string): string;
  branch(name: string): void;
  checkout(name: string): void;
  tag(name: string): void;
  remove(): void;
}

export function git(dir: string, args: string[]): string {
  return execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' },
  }).trim();
}

/** A fresh repository on branch `main`, optionally with a first commit of `files`. */
export function createGitRepo(files?: Record<string, string | null>, prefix = 'cp-repo-'): GitRepo {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  git(dir, ['init', '--quiet', '--initial-branch=main']);
  const repo: GitRepo = {
    dir,
    url: `file://${dir}`,
    commit(changes, message = 'change') {
      for (const [rel, content] of Object.entries(changes)) {
        const file = path.join(dir, rel);
        if (content === null) fs.rmSync(file, { force: true, recursive: true });
        else {
          fs.mkdirSync(path.dirname(file), { recursive: true });
          fs.writeFileSync(file, content);
        }
      }
      git(dir, ['add', '-A']);
      git(dir, ['commit', '--quiet', '--allow-empty', '-m', message]);
      return git(dir, ['rev-parse', 'HEAD']);
    },
    branch: (name) => git(dir, ['branch', name]),
    checkout: (name) => git(dir, ['checkout', '--quiet', name]),
    tag: (name) => git(dir, ['tag', name]),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
  if (files) repo.commit(files, 'initial');
  return repo;
}

/** Every file under `dir` (relative path → content), skipping node_modules and .git, for copying an example. */
export function readTree(dir: string, base = dir): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === '.git') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) Object.assign(out, readTree(full, base));
    else out[path.relative(base, full)] = fs.readFileSync(full, 'utf8');
  }
  return out;
}
