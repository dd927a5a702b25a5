import path from 'node:path';
import { z } from 'zod';

// The request shapes of `/v2/deployments` and its revisions: the control plane validates with them, clients (the
// console) type their requests with them.

const nullish = <T extends z.ZodType>(schema: T) => schema.nullish();
const number = z.number().positive();
const count = z.number().int().min(0);
const k8sObjects = z.array(z.record(z.string(), z.unknown()));

/** `source_config.resource_spec`: sizes, scale and Kubernetes pod settings. Shapes of the Kubernetes objects are checked separately. */
export const resourceSpecSchema = z
  .object({
    min_scale: nullish(count),
    max_scale: nullish(z.number().int().min(1)),
    cpu: nullish(number),
    cpu_limit: nullish(number),
    memory_mb: nullish(z.number().int().positive()),
    memory_limit_mb: nullish(z.number().int().positive()),
    queue_min_scale: nullish(count),
    queue_max_scale: nullish(count),
    queue_cpu: nullish(number),
    queue_cpu_limit: nullish(number),
    queue_memory_mb: nullish(z.number().int().positive()),
    queue_memory_limit_mb: nullish(z.number().int().positive()),
    db_cpu: nullish(number),
    db_memory_mb: nullish(z.number().int().positive()),
    db_storage_gi: nullish(z.number().int().positive()),
    db_max_connections: nullish(z.number().int().positive()),
    labels: nullish(z.record(z.string(), z.string())),
    annotations: nullish(z.record(z.string(), z.string())),
    service_account_name: nullish(z.string().min(1).max(253)),
    image_pull_secrets: nullish(z.array(z.object({ name: z.string().min(1) }))),
    volumes: nullish(k8sObjects),
    volume_mounts: nullish(k8sObjects),
    init_containers: nullish(k8sObjects),
    sidecars: nullish(k8sObjects),
  })
  .refine((r) => r.max_scale == null || r.max_scale >= (r.min_scale ?? 1), { message: 'max_scale must be at least min_scale', path: ['max_scale'] })
  .refine((r) => r.cpu_limit == null || r.cpu == null || r.cpu_limit >= r.cpu, { message: 'cpu_limit must be at least cpu', path: ['cpu_limit'] })
  .refine((r) => r.memory_limit_mb == null || r.memory_mb == null || r.memory_limit_mb >= r.memory_mb, {
    message: 'memory_limit_mb must be at least memory_mb',
    path: ['memory_limit_mb'],
  });

export const sourceConfigSchema = z.object({
  integration_id: nullish(z.string().uuid()),
  repo_url: nullish(z.string().min(1).max(2000)),
  deployment_type: nullish(z.enum(['dev_free', 'dev', 'prod'])),
  build_on_push: nullish(z.boolean()),
  custom_url: nullish(z.string().max(2000)),
  resource_spec: nullish(resourceSpecSchema),
  listener_id: nullish(z.string().max(200)),
  listener_config: nullish(z.object({ k8s_namespace: nullish(z.string().regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, 'must be a Kubernetes namespace name')) })),
  install_command: nullish(z.string().min(1).max(4000)),
  build_command: nullish(z.string().min(1).max(4000)),
});

const relativePath = z
  .string()
  .min(1)
  .max(500)
  .refine((p) => !path.isAbsolute(p) && !p.split(/[\\/]/).includes('..'), 'must be a path inside the repository');

export const sourceRevisionConfigSchema = z.object({
  repo_ref: nullish(z.string().min(1).max(255)),
  langgraph_config_path: nullish(relativePath),
  image_uri: nullish(z.string().min(1).max(1000)),
  // Read-only (set by the build); accepted and ignored so a client may send back what it read.
  repo_commit_sha: nullish(z.string()),
});

export const secretsSchema = z
  .array(
    z.object({
      name: z.string().min(1).max(256).regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name'),
      value: z.string().max(65_536),
    }),
  )
  .max(200);

export const deploymentName = z
  .string()
  .min(1)
  .max(63)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'must start with a letter or digit and hold only letters, digits, ".", "_" and "-"');

export const createDeploymentBody = z.object({
  name: deploymentName,
  source: z.enum(['github', 'external_docker']),
  source_config: sourceConfigSchema,
  source_revision_config: sourceRevisionConfigSchema,
  secrets: secretsSchema,
});

export const patchDeploymentBody = z.object({
  name: nullish(z.string()),
  source: nullish(z.string()),
  source_config: nullish(sourceConfigSchema),
  source_revision_config: nullish(sourceRevisionConfigSchema),
  secrets: nullish(secretsSchema),
});

const csv = z
  .string()
  .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
  .optional();

export const listDeploymentsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
  name_contains: z.string().optional(),
  status: csv,
  deployment_type: z.enum(['dev_free', 'dev', 'prod']).optional(),
  deployment_ids: csv.pipe(z.array(z.string().uuid()).optional()),
});

export const listRevisionsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
  status: csv,
});

/** The object without its null and undefined fields (the stored configuration keeps only what was set). */
export function compact<T extends Record<string, unknown>>(value: T | null | undefined): Record<string, unknown> {
  if (!value) return {};
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => [k, v && typeof v === 'object' && !Array.isArray(v) ? compact(v as Record<string, unknown>) : v]),
  );
}
