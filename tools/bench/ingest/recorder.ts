import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request an SDK client sent, kept to be sent again. */
export interface RecordedRequest {
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * A stand-in for the platform that keeps the SDK's ingest requests (answering 202) and serves the platform's own
 * `/info`, so the SDK chooses the same path (multipart, compressed) as against the platform.
 */
export async function startRecorder(info: unknown) {
  const requests: RecordedRequest[] = [];
  const read = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url?.endsWith('/info')) {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(info));
      return;
    }
    void read(req).then((body) => {
      const headers: Record<string, string> = {};
      for (const name of ['content-type', 'content-encoding']) if (req.headers[name]) headers[name] = String(req.headers[name]);
      requests.push({ path: req.url!.replace(/^\/api\/v1/, ''), headers, body });
      res.statusCode = 202;
      res.setHeader('content-type', 'application/json');
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
