-- AlterTable
ALTER TABLE "workspaces" ADD COLUMN     "limits" JSONB NOT NULL DEFAULT '{}';
