import type { RequestListener } from 'node:http';

const PROBES = new Set(['/ok', '/ready', '/metrics']);

/**
 * The server's routes under langgraph.json `http.mount_prefix` (`/my-agent/threads`); the probes stay at the root
 * too (the platform checks them there). Any other path is a 404.
 */
export function mountAt(prefix: string | undefined, listener: RequestListener): RequestListener {
  if (!prefix) return listener;
  return (req, res) => {
    const url = req.url ?? '/';
    const rest = url.slice(prefix.length);
    if (url.startsWith(prefix) && (rest === '' || rest.startsWith('/') || rest.startsWith('?'))) {
      req.url = rest.startsWith('/') ? rest : `/${rest}`;
      return listener(req, res);
    }
    if (PROBES.has(url.split('?')[0] ?? url)) return listener(req, res);
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'Not Found' }));
  };
}
