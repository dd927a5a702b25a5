-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "bulk_export_destinations" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "type" TEXT NOT NULL DEFAULT 's3',
    "display_name" TEXT NOT NULL,
    "config" JSONB NOT NULL,
    "credentials_encrypted" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bulk_export_destinations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bulk_exports" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "bulk_export_destination_id" UUID NOT NULL,
    "session_id" UUID NOT NULL,
    "start_time" TIMESTAMPTZ(6) NOT NULL,
    "end_time" TIMESTAMPTZ(6),
    "status" TEXT NOT NULL,
    "format" TEXT NOT NULL DEFAULT 'parquet',
    "compression" TEXT,
    "filter" TEXT,
    "export_fields" TEXT[],
    "interval_hours" INTEGER,
    "source_bulk_export_id" UUID,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(6),

    CONSTRAINT "bulk_exports_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "bulk_export_destinations_tenant_id_idx" ON "bulk_export_destinations"("tenant_id");

-- CreateIndex
CREATE INDEX "bulk_exports_tenant_id_status_idx" ON "bulk_exports"("tenant_id", "status");

-- CreateIndex
CREATE INDEX "bulk_exports_bulk_export_destination_id_idx" ON "bulk_exports"("bulk_export_destination_id");

-- AddForeignKey
ALTER TABLE "bulk_exports" ADD CONSTRAINT "bulk_exports_bulk_export_destination_id_fkey" FOREIGN KEY ("bulk_export_destination_id") REFERENCES "bulk_export_destinations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
