import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where deployments may come from. */
export interface SourceRules {
  /** `GIT_ALLOWED_URLS`: prefixes matched on the canonical URL or path, at segment boundaries; `*` allows any. */
  allowedRepoUrls: string[];
  /** Where uploads are kept (`<root>/<tenant>/<name>`): a tenant's own are always allowed to it, others' never. */
  uploadsRoot?: string;
  /** Folders no deployment may come from, whatever the prefixes say (the platform's checkout, its data). */
  protectedPaths?: string[];
}

/** What a `repo_url` canonically is: a local folder (real path, symlinks resolved) or a remote URL. */
export type RepoLocation = { kind: 'local'; path: string } | { kind: 'remote'; url: string };

/** The real path of `p`: symlinks resolved as far as it exists (the rest, not existing, has none). */
function realPath(p: string): string {
  const resolved = path.resolve(p);
  let existing = resolved;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync.native(existing), ...rest);
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return resolved;
      rest.unshift(path.basename(existing));
      existing = parent;
    }
  }
}

/** `child` is `parent` or lies under it (whole segments: `/srv/repos` does not contain `/srv/repos-evil`). */
export function pathWithin(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * A local `file:` URL as the real path it names, or undefined when it is malformed or ambiguous: a host, `%2f`, a
 * backslash, a NUL, or an encoding left after one decoding (`%252e`). `..`, `%2e%2e` and symlinks are resolved.
 */
function localPath(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'file:' || (parsed.host && parsed.host !== 'localhost') || parsed.search || parsed.hash) return undefined;
  let decoded: string;
  try {
    decoded = fileURLToPath(parsed);
  } catch {
    // An encoded `/` (`%2f`) or a host: refused, as git would read them differently.
    return undefined;
  }
  if (/[\\\0]/.test(decoded) || /%[0-9a-f]{2}/i.test(decoded)) return undefined;
  return realPath(decoded);
}

/** A prefix as a path, when it is a `file:` one (`file://` alone: the whole file system). */
function prefixPath(prefix: string): string | undefined {
  if (!/^file:/i.test(prefix)) return undefined;
  if (/^file:(\/\/)?\/?$/i.test(prefix)) return '/';
  return localPath(prefix);
}

function remoteAllowed(href: string, prefix: string): boolean {
  if (!href.startsWith(prefix)) return false;
  // At a boundary: the prefix ends one (`/`, `:`), or the URL's next character starts a new segment.
  return /[/:]$/.test(prefix) || href.length === prefix.length || '/?#'.includes(href[prefix.length]);
}

/**
 * What `repoUrl` canonically names when the rules allow it to `tenantId`, else undefined. Checked where a
 * deployment is created and again where it is fetched; the fetch uses the canonical location, never the raw text.
 */
export function resolveRepoLocation(repoUrl: string, rules: SourceRules, tenantId?: string): RepoLocation | undefined {
  if (!repoUrl || repoUrl.startsWith('-') || /[\s\\\0]/.test(repoUrl)) return undefined;
  const any = rules.allowedRepoUrls.includes('*');
  if (/^file:/i.test(repoUrl)) {
    const local = localPath(repoUrl);
    if (!local) return undefined;
    if (rules.uploadsRoot) {
      const uploads = realPath(rules.uploadsRoot);
      // A tenant's own uploads, always; another tenant's, never (whatever the prefixes allow).
      if (tenantId && pathWithin(local, path.join(uploads, tenantId))) return { kind: 'local', path: local };
      if (pathWithin(local, uploads)) return undefined;
    }
    if ((rules.protectedPaths ?? []).some((p) => pathWithin(local, realPath(p)))) return undefined;
    const allowed = any || rules.allowedRepoUrls.some((prefix) => {
      const base = prefixPath(prefix);
      return base !== undefined && pathWithin(local, base);
    });
    return allowed ? { kind: 'local', path: local } : undefined;
  }
  let href: string;
  try {
    href = new URL(repoUrl).href;
  } catch {
    // scp-like `git@host:path` and other non-URLs: only where the operator allows anything.
    return any && !/^[a-z0-9+.-]+::/i.test(repoUrl) ? { kind: 'remote', url: repoUrl } : undefined;
  }
  if (/^ext::|^fd::/i.test(repoUrl)) return undefined;
  const allowed = any || rules.allowedRepoUrls.some((prefix) => !/^file:/i.test(prefix) && remoteAllowed(href, prefix));
  return allowed ? { kind: 'remote', url: href } : undefined;
}
