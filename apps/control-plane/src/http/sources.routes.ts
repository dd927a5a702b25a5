import { z } from 'zod';
import { storeSourceUpload } from '@platform/control-plane-builder';
import { InputError } from '@platform/errors';
import { PayloadTooLargeError, bodyLimitOf, decodeBody, readingBody, tenantOf } from '@platform/http-server';
import { route, type DeclaredRoute } from '@platform/openapi';

const ARCHIVE_TYPES = ['application/gzip', 'application/x-gzip', 'application/x-tar+gzip', 'application/octet-stream'];

const storedSource = z.object({
  repo_url: z.string().describe("The tenant's repository of uploads: a deployment's `source_config.repo_url`"),
  repo_ref: z.string().describe('The commit the upload became: `source_revision_config.repo_ref`'),
});

/**
 * `POST /v2/sources/{name}`: a project as a `.tar.gz` (what `agent-platform deploy` sends) becomes the next commit
 * of the tenant's repository `name`; answers `201 {repo_url, repo_ref}` to create or PATCH a `github` deployment
 * with, so it is built and checked like any git source. The archive and its unpacked files are size-limited.
 */
export function sourcesRoutes(sourcesDir: string): DeclaredRoute[] {
  return [
    route(
      {
        method: 'post',
        path: '/v2/sources/:name',
        summary: 'Upload a project as the next commit of a source repository',
        tags: ['Sources'],
        params: z.object({ name: z.string() }),
        readsBody: { contentType: 'application/gzip', description: 'The project folder as a .tar.gz archive (at most 100 MiB, packed and unpacked)' },
        responses: {
          201: { description: 'The commit to deploy', schema: storedSource },
          413: { description: 'The archive or its unpacked files are too large' },
          422: { description: 'Not a .tar.gz archive, or a bad name' },
        },
      },
      async ({ params }, req, res) => {
        const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
        if (!ARCHIVE_TYPES.includes(type)) throw new InputError(`Send the project as a .tar.gz archive (Content-Type application/gzip), not '${type || 'none'}'`);
        const stored = await readingBody(req, () =>
          // Both the archive and the tar inside are held to the route's limit.
          storeSourceUpload({
            root: sourcesDir,
            tenantId: tenantOf(res),
            name: params.name,
            archive: decodeBody(req, req.headers['content-encoding'], req.headers['content-length'], { maxBytes: bodyLimitOf(res) }),
            maxUnpackedBytes: bodyLimitOf(res),
            tooLarge: (message) => new PayloadTooLargeError(message),
          }),
        );
        res.status(201).json({ repo_url: stored.repoUrl, repo_ref: stored.commitSha });
      },
    ),
  ];
}
