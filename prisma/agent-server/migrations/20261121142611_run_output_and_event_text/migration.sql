-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "output" TEXT;

-- AlterTable
ALTER TABLE "run_events" ALTER COLUMN "data" SET DATA TYPE TEXT;

-- CreateIndex
CREATE INDEX "run_events_created_at_idx" ON "run_events"("created_at");

-- At most one running run per thread, whatever the replicas do (the claim also locks the thread row).
-- Partial indexes are outside what schema.prisma can say, so this one lives only here.
CREATE UNIQUE INDEX "runs_one_running_per_thread" ON "runs"("thread_id") WHERE "status" = 'running';
