import type { Request } from 'express';

const first = (value: string | undefined) => value?.split(',')[0]?.trim() || undefined;

/**
 * The URL clients reach this server at, for links it hands out. Behind the gateway (which may strip a prefix, as
 * `/deployments/{id}`) that is what `X-Forwarded-Proto`, `X-Forwarded-Host` and `X-Forwarded-Prefix` say; otherwise
 * the request's own. No trailing slash.
 */
export function publicBaseUrl(header: (name: string) => string | undefined, own: { protocol: string; host: string | undefined }): string {
  const protocol = first(header('x-forwarded-proto')) ?? own.protocol;
  const host = first(header('x-forwarded-host')) ?? own.host ?? 'localhost';
  const prefix = (first(header('x-forwarded-prefix')) ?? '').replace(/\/+$/, '');
  // Only a path: anything else would let a header rewrite where clients send their messages.
  const safePrefix = /^(\/[\w.~%!$&'()*+,;=:@-]+)*$/.test(prefix) ? prefix : '';
  return `${protocol}://${host}${safePrefix}`;
}

/** {@link publicBaseUrl} of an express request. */
export function publicBaseUrlOf(req: Request): string {
  return publicBaseUrl((name) => req.get(name), { protocol: req.protocol, host: req.get('host') });
}
