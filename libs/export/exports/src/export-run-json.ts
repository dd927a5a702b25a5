import { microsToIso } from '@platform/contracts';
import type { ExportRun } from '@platform/export-data-access';

/**
 * The JSON shape of an export run. `prefix` is the run's Hive partition folder; `export_path` is where its
 * files actually are (the folder of the first file), or the prefix until a file exists.
 */
export function exportRunJson(run: ExportRun, prefix: string) {
  const firstKey = run.files[0]?.key;
  const exportPath = firstKey && firstKey.includes('/') ? firstKey.slice(0, firstKey.lastIndexOf('/')) : prefix;
  return {
    id: run.id,
    bulk_export_id: run.bulkExportId,
    status: run.status,
    retry_number: run.attempt,
    errors: run.errors,
    created_at: run.createdAt.toISOString(),
    updated_at: run.updatedAt.toISOString(),
    finished_at: run.finishedAt?.toISOString() ?? null,
    start_time: run.startTime.toISOString(),
    end_time: run.endTime.toISOString(),
    metadata: {
      prefix,
      start_time: run.startTime.toISOString(),
      end_time: run.endTime.toISOString(),
      result: {
        rows_written: Number(run.rowsWritten),
        bytes_written: Number(run.bytesWritten),
        exported_files: run.files.map((f) => f.key),
        export_path: exportPath,
        latest_cursor: run.cursor ? { start_time: microsToIso(run.cursor.startTimeMicros), id: run.cursor.id } : null,
      },
    },
  };
}
