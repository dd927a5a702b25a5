-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "deployments" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "source_config" JSONB NOT NULL,
    "source_revision_config" JSONB NOT NULL,
    "status" TEXT NOT NULL,
    "upstream_url" TEXT,
    "latest_revision_id" UUID,
    "active_revision_id" UUID,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deployments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "deployments_tenant_id_idx" ON "deployments"("tenant_id");

-- CreateIndex
CREATE UNIQUE INDEX "deployments_tenant_id_name_key" ON "deployments"("tenant_id", "name");
