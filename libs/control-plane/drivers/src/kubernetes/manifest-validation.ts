import type { KubernetesModule } from './kubernetes-client';

/** A problem found in a manifest: where (`spec.template.spec.containers[0].imagee`) and what. */
export interface ManifestIssue {
  path: string;
  message: string;
}

type Attribute = { name: string; baseName: string; type: string };
type Model = { getAttributeTypeMap?: () => Attribute[] };

// Fields the Kubernetes schemas mark required, for the objects the control plane renders or accepts from users.
const REQUIRED: Record<string, string[]> = {
  V1Deployment: ['metadata', 'spec'],
  V1DeploymentSpec: ['selector', 'template'],
  V1Container: ['name'],
  V1ContainerPort: ['containerPort'],
  V1EnvVar: ['name'],
  V1EnvFromSource: [],
  V1Volume: ['name'],
  V1VolumeMount: ['name', 'mountPath'],
  V1KeyToPath: ['key', 'path'],
  V1HTTPGetAction: ['port'],
  V1ServicePort: ['port'],
  V1SecretKeySelector: ['key'],
  V1ConfigMapKeySelector: ['key'],
  V1PersistentVolumeClaimVolumeSource: ['claimName'],
  V2HorizontalPodAutoscalerSpec: ['scaleTargetRef', 'maxReplicas'],
  V2CrossVersionObjectReference: ['kind', 'name'],
  V2MetricSpec: ['type'],
  V2ResourceMetricSource: ['name', 'target'],
  V2MetricTarget: ['type'],
};

const MAP = /^\{ \[key: string\]: (.+); \}$/;
const ARRAY = /^Array<(.+)>$/;

/**
 * Checks a JSON object against a Kubernetes model type of @kubernetes/client-node (generated from the Kubernetes
 * OpenAPI schema): unknown fields, wrong JSON types, missing required fields. Field names are the wire names.
 */
export function validateAgainstModel(k8s: KubernetesModule, value: unknown, type: string, path = ''): ManifestIssue[] {
  const issues: ManifestIssue[] = [];
  const at = (p: string) => p || '(root)';
  const visit = (v: unknown, t: string, p: string) => {
    if (v === null || v === undefined) return;
    const array = ARRAY.exec(t);
    if (array) {
      if (!Array.isArray(v)) issues.push({ path: at(p), message: `must be a list` });
      else v.forEach((item, i) => visit(item, array[1], `${p}[${i}]`));
      return;
    }
    const map = MAP.exec(t);
    if (map) {
      if (typeof v !== 'object' || Array.isArray(v)) issues.push({ path: at(p), message: 'must be an object' });
      else for (const [key, item] of Object.entries(v)) visit(item, map[1], `${p}.${key}`);
      return;
    }
    switch (t) {
      case 'string':
        if (typeof v !== 'string') issues.push({ path: at(p), message: 'must be a string' });
        return;
      case 'number':
        if (typeof v !== 'number') issues.push({ path: at(p), message: 'must be a number' });
        return;
      case 'boolean':
        if (typeof v !== 'boolean') issues.push({ path: at(p), message: 'must be a boolean' });
        return;
      case 'Date':
        if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) issues.push({ path: at(p), message: 'must be a date-time' });
        return;
      case 'IntOrString':
        if (typeof v !== 'string' && !Number.isInteger(v)) issues.push({ path: at(p), message: 'must be an integer or a string' });
        return;
      case 'any':
      case 'object':
        return;
    }
    const model = (k8s as unknown as Record<string, Model>)[t];
    const attributes = model?.getAttributeTypeMap?.();
    if (!attributes) {
      issues.push({ path: at(p), message: `unknown schema type ${t}` });
      return;
    }
    if (typeof v !== 'object' || Array.isArray(v)) {
      issues.push({ path: at(p), message: 'must be an object' });
      return;
    }
    const byName = new Map(attributes.map((a) => [a.baseName, a]));
    for (const [key, item] of Object.entries(v)) {
      const attribute = byName.get(key);
      if (!attribute) issues.push({ path: `${p ? `${p}.` : ''}${key}`, message: `unknown field "${key}" in ${t.replace(/^V\d+(alpha\d+|beta\d+)?/, '')}` });
      else visit(item, attribute.type, `${p ? `${p}.` : ''}${key}`);
    }
    for (const required of REQUIRED[t] ?? []) {
      if ((v as Record<string, unknown>)[required] === undefined) issues.push({ path: `${p ? `${p}.` : ''}${required}`, message: 'required field missing' });
    }
  };
  visit(value, type, path);
  return issues;
}

const TYPE_BY_KIND: Record<string, string> = {
  'apps/v1/Deployment': 'V1Deployment',
  'v1/Service': 'V1Service',
  'v1/Secret': 'V1Secret',
  'autoscaling/v2/HorizontalPodAutoscaler': 'V2HorizontalPodAutoscaler',
};

/** Validates a whole manifest by its apiVersion and kind. */
export function validateManifest(k8s: KubernetesModule, manifest: { apiVersion?: string; kind?: string }): ManifestIssue[] {
  const type = TYPE_BY_KIND[`${manifest.apiVersion}/${manifest.kind}`];
  if (!type) return [{ path: 'kind', message: `unsupported kind ${manifest.apiVersion}/${manifest.kind}` }];
  return validateAgainstModel(k8s, manifest, type);
}
