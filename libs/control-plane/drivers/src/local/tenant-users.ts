import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DeployError } from '../driver';

/**
 * Unprivileged users for the local driver's Agent Servers, one per deployment, when the control plane runs as root.
 *
 * A deployment runs as uid = gid = a number of its own (no /etc/passwd entry is needed: the kernel knows only
 * numbers), so it can read neither the platform's files (root's, 0700/0600) nor another deployment's: its home, its
 * embedded database and its build are its own, and `/proc/<pid>/environ` of another deployment's process (its
 * DEPLOYMENT_KEY, tracing key and secrets) is closed to it, which one shared tenant user could not give.
 *
 * Layout under the driver's work directory (`WORK_DIR`, `<DATA_DIR>/control-plane-work` by default):
 * - the work directory, `builds/`, `databases/` and `homes/`: 0711, root's (passed through, never listed);
 * - everything else there (`logs/`, `sources/`, ...): 0700, root's;
 * - `homes/<deployment>`: 0700, the deployment's (HOME, TMPDIR, schema cache); its owner records the uid;
 * - `databases/<deployment>` (embedded PGlite): the deployment's, 0700;
 * - `builds/<deployment>`: root's, group the deployment's, 0750 (directories) / 0640 (files): readable by the
 *   deployment, never writable by it (its code cannot change under a later restart), closed to every other one.
 */

/** The range of deployment uids: far above system and login users (and below 2^31, as node's spawn wants). */
export const TENANT_UID_BASE = 0x4000_0000;
const TENANT_UID_SPAN = 0x3fff_fff0;

export interface TenantUser {
  uid: number;
  gid: number;
  home: string;
}

const HOMES = 'homes';
const TENANT_DIRS = new Set(['builds', 'databases', HOMES]);

export function runningAsRoot(): boolean {
  return process.getuid?.() === 0;
}

function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** Walks `dir` (not following symlinks) and applies `visit` to it and everything below. */
function walk(dir: string, visit: (file: string, isDir: boolean) => void): void {
  const stat = fs.lstatSync(dir);
  // A link's own mode means nothing, and its target may be anywhere: links are never followed nor changed.
  if (stat.isSymbolicLink()) return;
  visit(dir, stat.isDirectory());
  if (!stat.isDirectory()) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) walk(file, visit);
    else visit(file, false);
  }
}

export class TenantUsers {
  constructor(private readonly workDir: string) {}

  /** Sets the modes of the work directory's top level (see above); the work directory is created if missing. */
  prepareWorkDir(): void {
    fs.mkdirSync(this.workDir, { recursive: true, mode: 0o711 });
    fs.chmodSync(this.workDir, 0o711);
    for (const name of TENANT_DIRS) fs.mkdirSync(path.join(this.workDir, name), { recursive: true });
    for (const entry of fs.readdirSync(this.workDir, { withFileTypes: true })) {
      const file = path.join(this.workDir, entry.name);
      if (entry.isSymbolicLink()) continue;
      fs.chmodSync(file, TENANT_DIRS.has(entry.name) ? 0o711 : entry.isDirectory() ? 0o700 : 0o600);
    }
    this.assertReachable(this.workDir);
  }

  /**
   * The deployment's user: the owner of its home when it has one, else a new uid (a hash of its id, moved on past
   * any uid another deployment's home has), recorded by creating the home.
   */
  userFor(deploymentId: string): TenantUser {
    const homes = path.join(this.workDir, HOMES);
    const home = path.join(homes, deploymentId);
    if (!fs.existsSync(home)) {
      const taken = new Set(fs.readdirSync(homes).map((name) => fs.lstatSync(path.join(homes, name)).uid));
      const digest = createHash('sha256').update(deploymentId).digest();
      let uid = TENANT_UID_BASE + (digest.readUInt32BE(0) % TENANT_UID_SPAN);
      while (taken.has(uid)) uid = uid + 1 >= TENANT_UID_BASE + TENANT_UID_SPAN ? TENANT_UID_BASE : uid + 1;
      // Synchronous from the check to the chown: no other allocation of this process runs in between.
      fs.mkdirSync(home, { mode: 0o700 });
      fs.chownSync(home, uid, uid);
    }
    const { uid } = fs.lstatSync(home);
    if (uid < TENANT_UID_BASE) throw new DeployError(`The home of deployment ${deploymentId} (${home}) belongs to uid ${uid}, not to a deployment user`);
    fs.mkdirSync(path.join(home, 'tmp'), { recursive: true, mode: 0o700 });
    walk(home, (file) => fs.chownSync(file, uid, uid));
    return { uid, gid: uid, home };
  }

  /**
   * Hands the deployment what it runs from: its build readable (group), its embedded database its own. Paths
   * outside the work directory (a checkout the operator points at) are left as they are: they must be readable.
   */
  grant(user: TenantUser, paths: { buildDir?: string; databaseDir?: string }): void {
    const { buildDir, databaseDir } = paths;
    const builds = path.join(this.workDir, 'builds');
    if (buildDir && isInside(builds, buildDir)) {
      // builds/<deployment>, and the revision's folder in it (once: a build never changes after it is done).
      const [deployment, revision] = path.relative(builds, buildDir).split(path.sep);
      const top = path.join(builds, deployment);
      fs.chownSync(top, 0, user.gid);
      fs.chmodSync(top, 0o750);
      const revisionDir = revision ? path.join(top, revision) : undefined;
      if (revisionDir && fs.statSync(revisionDir).gid !== user.gid) {
        walk(revisionDir, (file, isDir) => {
          const mode = fs.lstatSync(file).mode;
          fs.chownSync(file, 0, user.gid);
          // The group reads (and searches directories, runs executables); others get nothing; only root writes.
          fs.chmodSync(file, isDir || mode & 0o100 ? 0o750 : 0o640);
        });
      }
    }
    if (databaseDir && isInside(path.join(this.workDir, 'databases'), databaseDir)) {
      walk(databaseDir, (file, isDir) => {
        fs.chownSync(file, user.uid, user.gid);
        if (isDir) fs.chmodSync(file, 0o700);
      });
    }
    for (const target of [buildDir, databaseDir, user.home]) if (target) this.assertReachable(target);
  }

  /** Removes a destroyed deployment's home (its uid is free again). */
  remove(deploymentId: string): void {
    fs.rmSync(path.join(this.workDir, HOMES, deploymentId), { recursive: true, force: true });
  }

  /** Every directory above `target` must let others pass (x): else the deployment's user cannot reach it. */
  private assertReachable(target: string): void {
    for (let dir = path.dirname(path.resolve(target)); ; dir = path.dirname(dir)) {
      if (dir === path.resolve(target)) break;
      const mode = fs.statSync(dir).mode;
      // Inside the work directory the modes are ours (set above); above it they are the operator's.
      if (!(mode & 0o001) && !isInside(this.workDir, dir) && dir !== this.workDir) {
        throw new DeployError(`Deployments run as users of their own, which cannot pass ${dir} (mode ${(mode & 0o777).toString(8)}): let others search it (chmod o+x)`);
      }
      if (dir === path.dirname(dir)) break;
    }
  }
}
