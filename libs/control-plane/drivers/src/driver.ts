/** Everything a driver needs to run one revision of a deployment. */
export interface DeploySpec {
  deploymentId: string;
  deploymentName: string;
  tenantId: string;
  revisionId: string;
  source: string;
  /** github: the built checkout and its langgraph.json (absolute, on the control plane's disk). */
  checkoutDir?: string;
  configPath?: string;
  /** github: where the checkout came from, for drivers that fetch it again elsewhere (a pod's init container). */
  repoUrl?: string;
  commitSha?: string;
  /** OAuth token for a private repository. */
  repoToken?: string;
  /** Whether the build installed dependencies (and with which command), for drivers that install again. */
  installCommand?: string;
  /** external_docker: the image to run. */
  imageUri?: string;
  /** The Agent Server's environment: platform variables and the deployment's secrets. */
  env: Record<string, string>;
  /**
   * Whether two instances may use the deployment's database at once (Postgres). When false (an embedded PGlite
   * directory) the old instance stops before the new one starts.
   */
  sharedDatabase: boolean;
  /** `source_config.resource_spec` (Kubernetes shapes). */
  resourceSpec?: Record<string, unknown>;
  /** `source_config.listener_config.k8s_namespace`. */
  namespace?: string;
  /** Receives what the starting Agent Server printed (the revision's deploy log), where the driver can read it. */
  log?: (text: string) => void;
}

/** A deploy that failed for a reason to show in the revision's status_message. */
export class DeployError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeployError';
  }
}

/** Called when a driver moved a deployment's serving instance to another URL on its own (a restart). */
export type UpstreamListener = (deploymentId: string, upstreamUrl: string) => Promise<void>;

/** Runs Agent Servers: as local processes or as Kubernetes workloads. Only the reconciler's leader calls it. */
export interface DeploymentDriver {
  readonly kind: 'local' | 'kubernetes';
  /**
   * Starts the revision, waits until it is healthy, moves traffic to it and retires the deployment's older
   * instances. Resolves with the URL that now serves the deployment; throws DeployError (the previous instance
   * keeps serving where the driver can keep it).
   */
  deploy(spec: DeploySpec, signal: AbortSignal): Promise<{ upstreamUrl: string }>;
  /** Stops and removes everything the deployment runs. Idempotent. */
  destroy(deploymentId: string, namespace?: string): Promise<void>;
  /**
   * After gaining leadership: makes sure each of these (the deployments' active revisions) runs, adopting what a
   * previous leader left running and restarting what is gone, and removes what is not in the list.
   * Resolves with the upstream URL of each deployment that is serving.
   */
  resume(active: DeploySpec[]): Promise<Map<string, string>>;
  /** Leadership lost: stop supervising, but leave the instances to the next leader. */
  release(): Promise<void>;
  /** Shutdown of the control plane. */
  close(): Promise<void>;
}

/**
 * Variables of the platform's own services that must never reach a deployment (its graphs read their environment):
 * the internal secret signs for every workspace and service. A secret of that name is refused at the API.
 */
export const PLATFORM_ONLY_ENV: readonly string[] = ['INTERNAL_SECRET'];

/** Refuses to start a deployment whose environment carries a platform secret (a wiring mistake, never a tenant's). */
export function assertTenantEnv(env: Record<string, string>): void {
  const leaked = PLATFORM_ONLY_ENV.filter((name) => env[name] !== undefined);
  if (leaked.length > 0) throw new DeployError(`Refusing to give a deployment the platform's ${leaked.join(', ')}: an Agent Server gets its DEPLOYMENT_KEY only`);
}
