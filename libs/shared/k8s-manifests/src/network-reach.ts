import { containersOf, namespaceOf, selects, type Json, type PodTemplate } from './pod-templates';
import type { KubernetesObject } from './schema-validation';

/** One end of a connection: a pod (its namespace and labels) or an address outside the cluster. */
export type Endpoint = { namespace: string; labels: Record<string, string>; pod?: PodTemplate } | { ip: string };

/** The endpoint of a rendered workload's pods. */
export const podEndpoint = (pod: PodTemplate): Endpoint => ({ namespace: pod.namespace, labels: pod.labels, pod });

const ipv4 = (ip: string) => ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);

function inCidr(ip: string, cidr: string): boolean {
  const [base, bits] = cidr.split('/');
  const size = 2 ** (32 - Number(bits));
  return Math.floor(ipv4(ip) / size) === Math.floor(ipv4(base) / size);
}

// Every namespace carries its name as the label kubernetes.io/metadata.name.
const namespaceLabels = (namespace: string) => ({ 'kubernetes.io/metadata.name': namespace });

function peerMatches(peer: Json, policyNamespace: string, endpoint: Endpoint): boolean {
  if ('ip' in endpoint) {
    if (!peer.ipBlock) return false;
    return inCidr(endpoint.ip, peer.ipBlock.cidr) && !((peer.ipBlock.except ?? []) as string[]).some((c) => inCidr(endpoint.ip, c));
  }
  if (peer.ipBlock) return false;
  const namespaceOk = peer.namespaceSelector ? selects(peer.namespaceSelector, namespaceLabels(endpoint.namespace)) : endpoint.namespace === policyNamespace;
  const podOk = peer.podSelector ? selects(peer.podSelector, endpoint.labels) : true;
  return namespaceOk && podOk;
}

function portMatches(rulePorts: Json[] | undefined, port: number, protocol: string, destination?: PodTemplate): boolean {
  if (!rulePorts?.length) return true;
  return rulePorts.some((p) => {
    if ((p.protocol ?? 'TCP') !== protocol) return false;
    if (p.port === undefined) return true;
    if (typeof p.port === 'number') return p.endPort ? port >= p.port && port <= p.endPort : port === p.port;
    // A named port is the destination pod's.
    return !!destination && containersOf(destination).some(({ container }) => ((container.ports ?? []) as Json[]).some((cp) => cp.name === p.port && cp.containerPort === port));
  });
}

const policies = (objects: KubernetesObject[]) => objects.filter((o) => o.kind === 'NetworkPolicy') as Json[];
const hasType = (policy: Json, type: 'Ingress' | 'Egress') =>
  ((policy.spec.policyTypes as string[] | undefined) ?? (type === 'Ingress' ? ['Ingress'] : policy.spec.egress ? ['Egress'] : [])).includes(type);

/**
 * Whether the NetworkPolicies let `from` open a connection to `to`'s `port`, on both sides: the destination pod's
 * ingress rules and the source pod's egress rules (a pod no policy of a direction selects is open that way).
 */
export function canConnect(objects: KubernetesObject[], from: Endpoint, to: Endpoint, port: number, protocol = 'TCP'): boolean {
  // `self` is the pod whose policies apply, `other` the far end they must admit.
  const allowed = (direction: 'Ingress' | 'Egress', self: Endpoint, other: Endpoint, destination?: PodTemplate) => {
    if ('ip' in self) return true; // outside the cluster: not ours to police
    const selecting = policies(objects).filter((p) => namespaceOf(p) === self.namespace && hasType(p, direction) && selects(p.spec.podSelector, self.labels));
    if (!selecting.length) return true;
    const key = direction === 'Ingress' ? 'ingress' : 'egress';
    const peersKey = direction === 'Ingress' ? 'from' : 'to';
    return selecting.some((p) =>
      ((p.spec[key] ?? []) as Json[]).some(
        (rule) => (!rule[peersKey] || (rule[peersKey] as Json[]).some((peer) => peerMatches(peer, namespaceOf(p), other))) && portMatches(rule.ports, port, protocol, destination),
      ),
    );
  };
  const destination = 'pod' in to ? to.pod : undefined;
  return allowed('Ingress', to, from, destination) && allowed('Egress', from, to, destination);
}
