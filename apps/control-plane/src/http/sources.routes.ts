import { Router } from 'express';
import { storeSourceUpload } from '@platform/control-plane-builder';
import { InputError } from '@platform/errors';
import { PayloadTooLargeError, bodyLimitOf, decodeBody, readingBody, tenantOf } from '@platform/http-server';

const ARCHIVE_TYPES = ['application/gzip', 'application/x-gzip', 'application/x-tar+gzip', 'application/octet-stream'];

/**
 * `POST /v2/sources/{name}`: a project as a `.tar.gz` (what `agent-platform deploy` sends) becomes the next commit
 * of the tenant's repository `name`; answers `201 {repo_url, repo_ref}` to create or PATCH a `github` deployment
 * with, so it is built and checked like any git source. The archive and its unpacked files are size-limited.
 */
export function sourcesRoutes(sourcesDir: string): Router {
  const router = Router();
  router.post('/sources/:name', async (req, res) => {
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (!ARCHIVE_TYPES.includes(type)) throw new InputError(`Send the project as a .tar.gz archive (Content-Type application/gzip), not '${type || 'none'}'`);
    const stored = await readingBody(req, () =>
      // Both the archive and the tar inside are held to the route's limit.
      storeSourceUpload({
        root: sourcesDir,
        tenantId: tenantOf(res),
        name: req.params.name,
        archive: decodeBody(req, req.headers['content-encoding'], req.headers['content-length'], { maxBytes: bodyLimitOf(res) }),
        maxUnpackedBytes: bodyLimitOf(res),
        tooLarge: (message) => new PayloadTooLargeError(message),
      }),
    );
    res.status(201).json({ repo_url: stored.repoUrl, repo_ref: stored.commitSha });
  });
  return router;
}
