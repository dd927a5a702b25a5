// The Kubernetes client is an ES module; it is loaded on first use, so the local driver never pays for it.
export type KubernetesModule = typeof import('@kubernetes/client-node', { with: { 'resolution-mode': 'import' } });

let loaded: Promise<KubernetesModule> | undefined;

export function loadKubernetesClient(): Promise<KubernetesModule> {
  loaded ??= import('@kubernetes/client-node');
  return loaded;
}
