-- AlterTable
ALTER TABLE "bulk_export_destinations" ADD COLUMN     "credentials_keys" TEXT[] DEFAULT ARRAY[]::TEXT[],
ALTER COLUMN "credentials_encrypted" DROP NOT NULL;

-- AlterTable
ALTER TABLE "bulk_exports" ADD COLUMN     "error" TEXT,
ADD COLUMN     "format_version" TEXT NOT NULL DEFAULT 'v1',
ADD COLUMN     "schedule_window" INTEGER,
ADD COLUMN     "started_at" TIMESTAMPTZ(6),
ALTER COLUMN "format" SET DEFAULT 'Parquet';

-- CreateTable
CREATE TABLE "bulk_export_runs" (
    "id" UUID NOT NULL,
    "bulk_export_id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "start_time" TIMESTAMPTZ(6) NOT NULL,
    "end_time" TIMESTAMPTZ(6) NOT NULL,
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "errors" JSONB NOT NULL DEFAULT '{}',
    "dispatch_seq" INTEGER NOT NULL DEFAULT 0,
    "dispatched_at" TIMESTAMPTZ(6),
    "published_at" TIMESTAMPTZ(6),
    "next_attempt_at" TIMESTAMPTZ(6),
    "attempt_started_at" TIMESTAMPTZ(6),
    "last_progress_at" TIMESTAMPTZ(6),
    "cursor_start_time" BIGINT,
    "cursor_id" TEXT,
    "rows_written" BIGINT NOT NULL DEFAULT 0,
    "bytes_written" BIGINT NOT NULL DEFAULT 0,
    "files" JSONB NOT NULL DEFAULT '[]',
    "destination_snapshot" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(6),

    CONSTRAINT "bulk_export_runs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "bulk_export_runs_bulk_export_id_status_start_time_idx" ON "bulk_export_runs"("bulk_export_id", "status", "start_time");

-- CreateIndex
CREATE INDEX "bulk_export_runs_status_dispatched_at_idx" ON "bulk_export_runs"("status", "dispatched_at");

-- CreateIndex
CREATE INDEX "bulk_export_runs_tenant_id_status_idx" ON "bulk_export_runs"("tenant_id", "status");

-- CreateIndex
CREATE INDEX "bulk_exports_status_idx" ON "bulk_exports"("status");

-- CreateIndex
CREATE UNIQUE INDEX "bulk_exports_source_bulk_export_id_schedule_window_key" ON "bulk_exports"("source_bulk_export_id", "schedule_window");

-- AddForeignKey
ALTER TABLE "bulk_export_runs" ADD CONSTRAINT "bulk_export_runs_bulk_export_id_fkey" FOREIGN KEY ("bulk_export_id") REFERENCES "bulk_exports"("id") ON DELETE CASCADE ON UPDATE CASCADE;
