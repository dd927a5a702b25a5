-- CreateTable
CREATE TABLE "assistant_versions" (
    "assistant_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "graph_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "config" JSONB NOT NULL DEFAULT '{}',
    "context" JSONB NOT NULL DEFAULT '{}',
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "assistant_versions_pkey" PRIMARY KEY ("assistant_id","version")
);

-- CreateTable
CREATE TABLE "threads" (
    "thread_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'idle',
    "config" JSONB NOT NULL DEFAULT '{}',
    "values" JSONB,
    "interrupts" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "threads_pkey" PRIMARY KEY ("thread_id")
);

-- CreateTable
CREATE TABLE "runs" (
    "run_id" UUID NOT NULL,
    "thread_id" UUID NOT NULL,
    "assistant_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "kwargs" JSONB NOT NULL DEFAULT '{}',
    "multitask_strategy" TEXT NOT NULL DEFAULT 'enqueue',
    "available_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "lease_owner" TEXT,
    "lease_expires_at" TIMESTAMPTZ(6),
    "started_at" TIMESTAMPTZ(6),
    "ended_at" TIMESTAMPTZ(6),
    "temporary_thread" BOOLEAN NOT NULL DEFAULT false,
    "cancel_action" TEXT,

    CONSTRAINT "runs_pkey" PRIMARY KEY ("run_id")
);

-- CreateTable
CREATE TABLE "run_events" (
    "run_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "event" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "run_events_pkey" PRIMARY KEY ("run_id","seq")
);

-- CreateIndex
CREATE INDEX "threads_status_idx" ON "threads"("status");

-- CreateIndex
CREATE INDEX "threads_created_at_idx" ON "threads"("created_at");

-- CreateIndex
CREATE INDEX "runs_thread_id_created_at_idx" ON "runs"("thread_id", "created_at");

-- CreateIndex
CREATE INDEX "runs_status_available_at_idx" ON "runs"("status", "available_at");

-- CreateIndex
CREATE INDEX "runs_lease_expires_at_idx" ON "runs"("lease_expires_at");
