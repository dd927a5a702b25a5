import { z } from 'zod';
import { route, type DeclaredRoute } from '@platform/openapi';
import { ATTACHMENT_DOWNLOAD_PATH, downloadAttachment, type DownloadDeps } from '@platform/tracing-runs';

const downloadQuery = z.object({ jwt: z.string().min(1) });

/** `Content-Disposition` for a download: the name as ASCII (others replaced) and exactly (RFC 5987). */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const exact = encodeURIComponent(name).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

/**
 * `GET /api/v1/public/download?jwt=...`: an attachment by its signed link, with no API key (the gateway lets this
 * path through; the link is the credential). Stored content types come from clients, so the bytes are served as a
 * download that browsers neither sniff nor render in this origin.
 */
export function attachmentDownloadRoutes(deps: DownloadDeps): DeclaredRoute[] {
  return [
    route(
      {
        method: 'get',
        path: ATTACHMENT_DOWNLOAD_PATH,
        summary: 'Download an attachment by its signed link (public: the link is the credential)',
        tags: ['Attachments'],
        public: true,
        query: downloadQuery,
        responses: { 200: { description: 'The attachment, as a download' }, 403: { description: 'A bad or expired link' } },
      },
      async ({ query }, _req, res) => {
        const file = await downloadAttachment(deps, query.jwt);
        res
          .status(200)
          .set({
            'content-type': file.contentType,
            'content-length': String(file.data.length),
            'content-disposition': contentDisposition(file.name),
            'x-content-type-options': 'nosniff',
            'content-security-policy': "default-src 'none'; sandbox",
            'cache-control': 'private, no-store',
          })
          .end(file.data);
      },
    ),
  ];
}
