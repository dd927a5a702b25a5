import { KUBERNETES_SCHEMA_VERSION, loadModel } from './schema-models';

/** A problem found in a manifest: where (`spec.template.spec.containers[0].imagee`) and what. */
export interface ManifestIssue {
  path: string;
  message: string;
}

/** What every Kubernetes object has; the rest is checked against its kind's schema. */
export interface KubernetesObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
}

type AjvError = { instancePath: string; keyword: string; message?: string; params?: Record<string, unknown> };

/** `/spec/template/spec/containers/0/image` → `spec.template.spec.containers[0].image`. */
function fieldPath(pointer: string, extra?: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) parts.push(extra);
  return parts.reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '') || '(root)';
}

/**
 * Wraps `value` so that every property a validator reads is recorded. A compiled JSON-schema validator reads each
 * property its schema defines (and iterates the keys of maps); a key it never reads is a field the schema does not
 * know — what `kubectl --validate=strict` and kubeconform's strict mode report as an unknown field.
 */
function recordReads(value: unknown): { proxy: unknown; unread: () => string[] } {
  const reads = new WeakMap<object, Set<PropertyKey>>();
  const proxies = new WeakMap<object, object>();
  const wrap = (target: unknown): unknown => {
    if (!target || typeof target !== 'object') return target;
    const cached = proxies.get(target);
    if (cached) return cached;
    reads.set(target, new Set());
    const proxy = new Proxy(target, {
      get(t, key, receiver) {
        reads.get(t)?.add(key);
        return wrap(Reflect.get(t, key, receiver));
      },
    });
    proxies.set(target, proxy);
    return proxy;
  };
  const unread = () => {
    const found: string[] = [];
    const visit = (node: unknown, pointer: string) => {
      if (!node || typeof node !== 'object') return;
      const seen = reads.get(node);
      if (!seen) return; // never reached: an error above it was reported instead
      for (const [key, child] of Object.entries(node)) {
        const at = `${pointer}/${key}`;
        if (!Array.isArray(node) && !seen.has(key)) found.push(at);
        else visit(child, at);
      }
    };
    visit(value, '');
    return found;
  };
  return { proxy: wrap(value), unread };
}

/**
 * The object as the API server decodes it: a Secret's `data` is base64 whose line breaks Go's decoder skips (kustomize
 * folds long values over lines), while the schema's `byte` format admits none.
 */
function apiServerView(object: KubernetesObject): KubernetesObject {
  const data = object.kind === 'Secret' && object.apiVersion === 'v1' ? (object as { data?: unknown }).data : undefined;
  if (!data || typeof data !== 'object') return object;
  const unfolded = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, typeof v === 'string' ? v.replace(/[\r\n]/g, '') : v]));
  return { ...object, data: unfolded } as KubernetesObject;
}

/**
 * Validates one object against the OpenAPI schema of its kind for Kubernetes {@link KUBERNETES_SCHEMA_VERSION}
 * (kubernetes-models, compiled with ajv from the Kubernetes OpenAPI spec; KEDA's from its CRDs): required fields,
 * types, enums, formats, and — strictly, as `kubectl apply --validate=strict` would — unknown fields.
 */
export async function validateSchema(object: KubernetesObject): Promise<ManifestIssue[]> {
  const model = await loadModel(object.apiVersion, object.kind);
  if (!model) return [{ path: 'kind', message: `no schema for ${object.apiVersion}/${object.kind} in Kubernetes ${KUBERNETES_SCHEMA_VERSION} (or KEDA)` }];
  const { proxy, unread } = recordReads(apiServerView(object));
  const issues: ManifestIssue[] = [];
  try {
    model.prototype.validate.call(proxy);
  } catch (err) {
    const errors = (err as { errors?: AjvError[] }).errors;
    if (!errors) throw err;
    for (const e of errors) {
      const missing = e.keyword === 'required' ? String(e.params?.missingProperty) : undefined;
      const message =
        missing !== undefined
          ? 'required field missing'
          : e.keyword === 'enum'
            ? `must be one of ${(e.params?.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`
            : (e.message ?? e.keyword);
      issues.push({ path: fieldPath(e.instancePath, missing), message });
    }
  }
  for (const pointer of unread()) {
    const name = pointer.slice(pointer.lastIndexOf('/') + 1);
    issues.push({ path: fieldPath(pointer), message: `unknown field "${name}"` });
  }
  return issues;
}
