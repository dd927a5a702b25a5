import { z } from 'zod';
import { EgressPolicy, type Resolver } from './egress-policy';
import { parseCidr } from './ip-address';

const list = (check?: (item: string) => void) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      const items = (v ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      for (const item of items) {
        try {
          check?.(item);
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: (err as Error).message });
          return z.NEVER;
        }
      }
      return items;
    });

/**
 * The operator's egress allowlist, as a service's config schema takes it (spread into the app's `z.object`):
 * tenant-given URLs (export destinations, run webhooks) may reach non-public addresses only in these blocks/hosts.
 */
export const egressEnv = () => ({
  /** Non-public address blocks tenant-given URLs may reach (comma-separated CIDRs, e.g. `10.1.2.0/24,127.0.0.1/32`). Default none. */
  EGRESS_ALLOWED_CIDRS: list((item) => parseCidr(item)),
  /** Host names tenant-given URLs may reach whatever they resolve to (comma-separated, e.g. `minio.internal`). Default none. */
  EGRESS_ALLOWED_HOSTS: list(),
});

export interface EgressConfig {
  EGRESS_ALLOWED_CIDRS: string[];
  EGRESS_ALLOWED_HOSTS: string[];
}

/** The policy a service's parsed config describes. */
export function egressPolicyFromConfig(config: EgressConfig, resolver?: Resolver): EgressPolicy {
  return new EgressPolicy({ allowedCidrs: config.EGRESS_ALLOWED_CIDRS, allowedHosts: config.EGRESS_ALLOWED_HOSTS, resolver });
}
