import type { RequestListener } from 'node:http';

const PROBES = new Set(['/ok', '/ready', '/metrics']);

/**
 * The server's routes under langgraph.json `http.mount_prefix` (`/my-agent/threads`); the probes stay at the root
 * too (the platform checks them there). Any other path is a 404. The prefix joins `X-Forwarded-Prefix`.
 */
export function mountAt(prefix: string | undefined, listener: RequestListener): RequestListener {
  if (!prefix) return listener;
  return (req, res) => {
    const url = req.url ?? '/';
    const rest = url.slice(prefix.length);
    if (url.startsWith(prefix) && (rest === '' || rest.startsWith('/') || rest.startsWith('?'))) {
      req.url = rest.startsWith('/') ? rest : `/${rest}`;
      // Links the server hands out (UI assets, A2A) keep the prefix, after the gateway's own.
      const forwarded = req.headers['x-forwarded-prefix'];
      req.headers['x-forwarded-prefix'] = `${typeof forwarded === 'string' ? forwarded.replace(/\/+$/, '') : ''}${prefix}`;
      return listener(req, res);
    }
    if (PROBES.has(url.split('?')[0] ?? url)) return listener(req, res);
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'Not Found' }));
  };
}
