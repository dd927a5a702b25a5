/** The Kubernetes release whose OpenAPI schemas the pinned kubernetes-models package was generated from. */
export const KUBERNETES_SCHEMA_VERSION = '1.33.0';

/** A kubernetes-models class: its `validate` runs the kind's compiled schema on `this`. */
export interface SchemaModel {
  prototype: { validate(this: unknown): void };
}

// The kinds this platform renders (overlays and the control plane's driver). Both packages are ES modules, loaded on
// first use; a kind missing here is reported, never passed unchecked.
const MODELS: Record<string, () => Promise<SchemaModel>> = {
  'v1/Namespace': async () => (await import('kubernetes-models/v1/Namespace')).Namespace,
  'v1/ConfigMap': async () => (await import('kubernetes-models/v1/ConfigMap')).ConfigMap,
  'v1/Secret': async () => (await import('kubernetes-models/v1/Secret')).Secret,
  'v1/Service': async () => (await import('kubernetes-models/v1/Service')).Service,
  'v1/Pod': async () => (await import('kubernetes-models/v1/Pod')).Pod,
  'v1/ServiceAccount': async () => (await import('kubernetes-models/v1/ServiceAccount')).ServiceAccount,
  'apps/v1/Deployment': async () => (await import('kubernetes-models/apps/v1/Deployment')).Deployment,
  'apps/v1/StatefulSet': async () => (await import('kubernetes-models/apps/v1/StatefulSet')).StatefulSet,
  'batch/v1/Job': async () => (await import('kubernetes-models/batch/v1/Job')).Job,
  'policy/v1/PodDisruptionBudget': async () => (await import('kubernetes-models/policy/v1/PodDisruptionBudget')).PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': async () => (await import('kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler')).HorizontalPodAutoscaler,
  'networking.k8s.io/v1/NetworkPolicy': async () => (await import('kubernetes-models/networking.k8s.io/v1/NetworkPolicy')).NetworkPolicy,
  'networking.k8s.io/v1/Ingress': async () => (await import('kubernetes-models/networking.k8s.io/v1/Ingress')).Ingress,
  'rbac.authorization.k8s.io/v1/Role': async () => (await import('kubernetes-models/rbac.authorization.k8s.io/v1/Role')).Role,
  'rbac.authorization.k8s.io/v1/RoleBinding': async () => (await import('kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding')).RoleBinding,
  'keda.sh/v1alpha1/ScaledObject': async () => (await import('@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject')).ScaledObject,
  'keda.sh/v1alpha1/TriggerAuthentication': async () => (await import('@kubernetes-models/keda/keda.sh/v1alpha1/TriggerAuthentication')).TriggerAuthentication,
};

/** The schema model of a kind, or undefined when the platform has none for it. */
export function loadModel(apiVersion: string | undefined, kind: string | undefined): Promise<SchemaModel> | undefined {
  return MODELS[`${apiVersion}/${kind}`]?.();
}
