-- CreateTable
CREATE TABLE "runs" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "session_id" UUID,
    "trace_id" UUID,
    "parent_run_id" UUID,
    "parent_run_ids" UUID[],
    "dotted_order" TEXT,
    "is_root" BOOLEAN NOT NULL DEFAULT false,
    "name" TEXT,
    "run_type" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "start_time" TIMESTAMPTZ(6),
    "end_time" TIMESTAMPTZ(6),
    "first_token_time" TIMESTAMPTZ(6),
    "inputs" JSONB,
    "outputs" JSONB,
    "error" TEXT,
    "extra" JSONB,
    "events" JSONB,
    "serialized" JSONB,
    "tags" TEXT[],
    "reference_example_id" UUID,
    "trace_tier" TEXT,
    "feedback_stats" JSONB,
    "own_prompt_tokens" BIGINT NOT NULL DEFAULT 0,
    "own_completion_tokens" BIGINT NOT NULL DEFAULT 0,
    "own_total_tokens" BIGINT NOT NULL DEFAULT 0,
    "own_prompt_cost" DECIMAL(20,10),
    "own_completion_cost" DECIMAL(20,10),
    "own_total_cost" DECIMAL(20,10),
    "prompt_tokens" BIGINT NOT NULL DEFAULT 0,
    "completion_tokens" BIGINT NOT NULL DEFAULT 0,
    "total_tokens" BIGINT NOT NULL DEFAULT 0,
    "prompt_cost" DECIMAL(20,10),
    "completion_cost" DECIMAL(20,10),
    "total_cost" DECIMAL(20,10),
    "has_create" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "runs_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "feedback" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "trace_id" UUID,
    "key" TEXT NOT NULL,
    "score" DOUBLE PRECISION,
    "value" JSONB,
    "comment" TEXT,
    "extra" JSONB,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "feedback_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateIndex
CREATE INDEX "runs_tenant_id_session_id_start_time_id_idx" ON "runs"("tenant_id", "session_id", "start_time", "id");

-- CreateIndex
CREATE INDEX "runs_tenant_id_trace_id_idx" ON "runs"("tenant_id", "trace_id");

-- CreateIndex
CREATE INDEX "feedback_tenant_id_run_id_idx" ON "feedback"("tenant_id", "run_id");

-- CreateIndex
CREATE INDEX "feedback_tenant_id_key_idx" ON "feedback"("tenant_id", "key");
