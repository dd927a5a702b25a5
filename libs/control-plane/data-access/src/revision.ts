/** Revision statuses of the LangSmith Deployment API. */
export const REVISION_STATUSES = [
  'CREATING',
  'QUEUED',
  'AWAITING_BUILD',
  'BUILDING',
  'AWAITING_DEPLOY',
  'DEPLOYING',
  'DEPLOYED',
  'CREATE_FAILED',
  'BUILD_FAILED',
  'DEPLOY_FAILED',
  'SKIPPED',
  'INTERRUPTED',
  // It served until a newer revision took over (the deployment's previous live revision).
  'REPLACED',
  'UNKNOWN',
] as const;

export type RevisionStatus = (typeof REVISION_STATUSES)[number];

/** Statuses the reconciler still has work for; every other status is final. */
export const IN_PROGRESS_STATUSES: readonly RevisionStatus[] = ['CREATING', 'QUEUED', 'AWAITING_BUILD', 'BUILDING', 'AWAITING_DEPLOY', 'DEPLOYING'];

/** A revision that ended without serving: the deployment reads it while nothing else serves. */
export const FAILED_STATUSES: readonly RevisionStatus[] = ['CREATE_FAILED', 'BUILD_FAILED', 'DEPLOY_FAILED'];

export function isInProgress(status: string): boolean {
  return (IN_PROGRESS_STATUSES as readonly string[]).includes(status);
}

/** What a build left for the deploy step. */
export interface RevisionArtifact {
  /** Directory of the checked-out source (github). */
  checkoutDir?: string;
  /** Absolute path of the validated langgraph.json (github). */
  configPath?: string;
  /** Graph ids the configuration declares. */
  graphs?: string[];
  /** Container image to run (external_docker). */
  imageUri?: string;
  /** Whether dependencies were installed into the checkout (else the platform's own packages serve). */
  installed?: boolean;
  /** The install command the build ran (drivers that install again run the same). */
  installCommand?: string;
  /** The LangGraph.js packages found (`name` → `version (project|platform)`). */
  packages?: Record<string, string>;
}

export interface Revision {
  id: string;
  deploymentId: string;
  source: string;
  sourceConfig: Record<string, unknown>;
  sourceRevisionConfig: Record<string, unknown>;
  status: RevisionStatus;
  statusMessage: string | null;
  attempts: number;
  artifact: RevisionArtifact | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface RevisionFilter {
  limit: number;
  offset: number;
  statuses?: string[];
}
