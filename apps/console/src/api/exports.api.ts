import { api } from './http';
import type { BulkExport, CreateDestinationRequest, CreateExportRequest, Destination, ExportRun } from './types';

const BASE = '/api/v1/bulk-exports';

export const exportsApi = {
  destinations: () => api<Destination[]>('GET', `${BASE}/destinations`),
  createDestination: (body: CreateDestinationRequest) => api<Destination>('POST', `${BASE}/destinations`, { body }),
  list: () => api<BulkExport[]>('GET', BASE),
  get: (id: string) => api<BulkExport>('GET', `${BASE}/${id}`),
  create: (body: CreateExportRequest) => api<BulkExport>('POST', BASE, { body }),
  cancel: (id: string) => api<BulkExport>('PATCH', `${BASE}/${id}`, { body: { status: 'Cancelled' } }),
  runs: (id: string) => api<ExportRun[]>('GET', `${BASE}/${id}/runs`),
  /** The runs of the exports a schedule spawned (each names its export in `bulk_export_id`). */
  spawnedRuns: (scheduleId: string) => api<ExportRun[]>('GET', `${BASE}/runs`, { query: { source_bulk_export_id: scheduleId } }),
};

export const isExportDone = (status: string) => ['Completed', 'Failed', 'Cancelled', 'TimedOut'].includes(status);
