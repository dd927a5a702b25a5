-- AlterTable
ALTER TABLE "tracing_sessions" ADD COLUMN     "end_time" TIMESTAMPTZ(6);
