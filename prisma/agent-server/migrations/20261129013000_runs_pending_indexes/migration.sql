-- The run claim walks the pending runs in claim order and stops at its limit, instead of reading the whole queue;
-- it checks each candidate for an earlier pending run of its thread without reading the thread's history.
-- (SQL only: partial indexes are outside what schema.prisma can say, so this migration was written by hand.)
CREATE INDEX "runs_pending_order" ON "runs"("created_at", "run_id") WHERE "status" = 'pending';
CREATE INDEX "runs_pending_by_thread" ON "runs"("thread_id", "created_at", "run_id") WHERE "status" = 'pending';
