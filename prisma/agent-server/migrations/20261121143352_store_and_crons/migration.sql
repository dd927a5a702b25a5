-- CreateTable
CREATE TABLE "store_items" (
    "prefix" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(6),
    "ttl_minutes" DOUBLE PRECISION,

    CONSTRAINT "store_items_pkey" PRIMARY KEY ("prefix","key")
);

-- CreateTable
CREATE TABLE "crons" (
    "cron_id" UUID NOT NULL,
    "assistant_id" UUID NOT NULL,
    "thread_id" UUID,
    "user_id" TEXT,
    "schedule" TEXT NOT NULL,
    "timezone" TEXT,
    "payload" JSONB NOT NULL DEFAULT '{}',
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "on_run_completed" TEXT,
    "end_time" TIMESTAMPTZ(6),
    "next_run_date" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "crons_pkey" PRIMARY KEY ("cron_id")
);

-- CreateIndex
CREATE INDEX "store_items_expires_at_idx" ON "store_items"("expires_at");

-- CreateIndex
CREATE INDEX "crons_next_run_date_idx" ON "crons"("next_run_date");

-- CreateIndex
CREATE INDEX "crons_assistant_id_idx" ON "crons"("assistant_id");

-- CreateIndex
CREATE INDEX "crons_thread_id_idx" ON "crons"("thread_id");

-- Namespace-prefix searches are `prefix = $1 OR prefix LIKE $1 || '.%'`; only a pattern-ops index serves LIKE
-- whatever the database collation. (Outside what schema.prisma can say, so it lives only here.)
CREATE INDEX "store_items_prefix_pattern_idx" ON "store_items"("prefix" text_pattern_ops);

-- The schedulers' claim: enabled crons by next run date.
CREATE INDEX "crons_due_idx" ON "crons"("next_run_date") WHERE "enabled";

-- A cron goes with its thread and its assistant. The thread and assistant models declare no relations, so the
-- foreign keys live only here.
ALTER TABLE "crons" ADD CONSTRAINT "crons_thread_id_fkey" FOREIGN KEY ("thread_id") REFERENCES "threads"("thread_id") ON DELETE CASCADE;
ALTER TABLE "crons" ADD CONSTRAINT "crons_assistant_id_fkey" FOREIGN KEY ("assistant_id") REFERENCES "assistants"("assistant_id") ON DELETE CASCADE;
