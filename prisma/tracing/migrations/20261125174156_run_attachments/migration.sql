-- CreateTable
CREATE TABLE "run_attachments" (
    "tenant_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "run_attachments_pkey" PRIMARY KEY ("tenant_id","run_id","name")
);

-- Attachments are mostly compressed already (images, PDFs, audio): store them out of line without trying to compress.
ALTER TABLE "run_attachments" ALTER COLUMN "data" SET STORAGE EXTERNAL;
