import type { RequestHandler } from 'express';
import { IdentityHeaders, verifyIdentity, type HeaderBag } from '@platform/identity';
import type { RequestContext } from './request-context';

export interface TrustedIdentityOptions {
  /** What signatures verify with: the internal secret on platform services, the deployment's key on an Agent Server. */
  secret: string;
  /**
   * Keys that verify too, for a rotation window (an Agent Server started after the platform secret changed also
   * takes what a gateway still on the old secret signs). Tried only when `secret` fails.
   */
  previousSecrets?: readonly string[];
  /** Paths that pass without a signature (probes, metrics, docs, an OAuth callback). */
  publicPaths: (path: string) => boolean;
  /**
   * The deployment this service serves (an Agent Server's DEPLOYMENT_ID): a request the gateway signed for another
   * deployment, or for none, is refused on every path. Unset (tests, dev): any valid signature passes.
   */
  deploymentId?: string;
}

/**
 * Lets a request in only with a valid gateway signature, so a service port reached directly admits no one, and,
 * on a service bound to a deployment, only a request signed for that deployment.
 */
export function trustedIdentity(options: TrustedIdentityOptions): RequestHandler {
  const { secret, publicPaths, deploymentId } = options;
  const previous = options.previousSecrets ?? [];
  const verify = (headers: HeaderBag, requestId: string) => {
    let result = verifyIdentity(secret, headers, requestId);
    for (let i = 0; !result.ok && result.reason === 'invalid gateway signature' && i < previous.length; i++) result = verifyIdentity(previous[i], headers, requestId);
    return result;
  };
  return (req, res, next) => {
    const context = res.locals as RequestContext;
    const result = verify(req.headers, context.requestId);
    // Signed (with its own key, which this server cannot verify) for another deployment: the gateway routed that
    // deployment's traffic here. Refused on every path, public ones included, as a valid signature for it would be.
    const claimed = req.headers[IdentityHeaders.deployment];
    if (!result.ok && deploymentId !== undefined && typeof claimed === 'string' && claimed && claimed !== deploymentId) {
      context.logger.error({ signed_for: claimed, path: req.path }, 'request refused: signed for another deployment');
      res.status(403).json({ detail: `This server does not serve deployment ${claimed}` });
      return;
    }
    if (result.ok && deploymentId !== undefined && result.deploymentId !== deploymentId) {
      // A gateway older than the deployment binding signs none; let it through a rolling upgrade.
      if (result.deploymentId === undefined) {
        context.logger.warn({ path: req.path }, 'request signed without a deployment (gateway older than this server); let in');
      } else {
        // Not the client's doing: the gateway routed one deployment's traffic here (a stale or wrong upstream).
        context.logger.error({ signed_for: result.deploymentId || null, path: req.path }, 'request refused: signed for another deployment');
        res.status(403).json({ detail: result.deploymentId ? `This server does not serve deployment ${result.deploymentId}` : 'This server serves one deployment; the request names none' });
        return;
      }
    }
    if (result.ok) {
      context.identity = result.identity;
      return next();
    }
    if (publicPaths(req.path)) return next();
    context.logger.warn({ reason: result.reason, path: req.path }, 'request refused: no valid gateway signature');
    res.status(401).json({ detail: 'Not authenticated: requests must come through the gateway' });
  };
}
