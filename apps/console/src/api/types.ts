// The wire shapes the console reads and sends, taken from the services' own schemas and JSON mappers (type-only
// imports: nothing of the server libs reaches the bundle). The SDKs bring their own types for the Agent Server
// (@langchain/langgraph-sdk) and for traces (langsmith).
import type { z } from 'zod';
import type { EXPORTABLE_RUN_FIELDS } from '@platform/contracts/run-fields';
import type {
  RevisionLogsJson,
  createDeploymentBody,
  deploymentJson,
  patchDeploymentBody,
  revisionJson,
  sourceConfigSchema,
  sourceRevisionConfigSchema,
} from '@platform/control-plane-deployments';
import type { REVISION_STATUSES } from '@platform/control-plane-data-access';
import type { providerJson } from '@platform/control-plane-oauth';
import type { ExportStatus } from '@platform/export-data-access';
import type { createDestinationSchema, destinationJson } from '@platform/export-destinations';
import type { bulkExportJson, createExportSchema, exportRunJson } from '@platform/export-exports';
import type { BrowserSessionJson } from '@platform/gateway-identity';
import type { tracingProjectJson } from '@platform/tracing-projects';
import type { RunQueryPage, RunQueryRequest } from '@platform/tracing-runs';

export type BrowserSession = BrowserSessionJson;

export type Deployment = ReturnType<typeof deploymentJson>;
export type DeploymentPage = { resources: Deployment[]; offset: number };
export type CreateDeploymentRequest = z.input<typeof createDeploymentBody>;
export type PatchDeploymentRequest = z.input<typeof patchDeploymentBody>;
export type SourceConfig = z.input<typeof sourceConfigSchema> & { custom_url?: string };
export type SourceRevisionConfig = z.input<typeof sourceRevisionConfigSchema>;
export type Revision = ReturnType<typeof revisionJson>;
export type RevisionStatus = (typeof REVISION_STATUSES)[number];
export type RevisionPage = { resources: Revision[]; offset: number };
export type RevisionLogs = RevisionLogsJson;

export type OAuthProvider = ReturnType<typeof providerJson>;

export type TracingProject = ReturnType<typeof tracingProjectJson>;
export type RunsQuery = Partial<RunQueryRequest>;
export type RunsPage = RunQueryPage;
export type TraceRun = RunsPage['runs'][number];

export type Destination = ReturnType<typeof destinationJson>;
export type CreateDestinationRequest = z.input<typeof createDestinationSchema>;
export type BulkExport = ReturnType<typeof bulkExportJson>;
export type CreateExportRequest = z.input<typeof createExportSchema>;
export type ExportRun = ReturnType<typeof exportRunJson>;
export type ExportRunStatus = ExportStatus;
export type ExportField = (typeof EXPORTABLE_RUN_FIELDS)[number];
