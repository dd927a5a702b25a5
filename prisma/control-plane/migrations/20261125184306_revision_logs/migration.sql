-- CreateTable
CREATE TABLE "revision_logs" (
    "id" BIGSERIAL NOT NULL,
    "revision_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "level" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "timestamp" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "revision_logs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "revision_logs_revision_id_id_idx" ON "revision_logs"("revision_id", "id");

-- AddForeignKey
ALTER TABLE "revision_logs" ADD CONSTRAINT "revision_logs_revision_id_fkey" FOREIGN KEY ("revision_id") REFERENCES "revisions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
