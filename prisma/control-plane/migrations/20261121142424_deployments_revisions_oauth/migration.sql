-- AlterTable
ALTER TABLE "deployments" ADD COLUMN     "database" TEXT,
ADD COLUMN     "organization_id" UUID,
ADD COLUMN     "tracing_key" TEXT,
ADD COLUMN     "tracing_key_id" UUID;

-- CreateTable
CREATE TABLE "deployment_secrets" (
    "deployment_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "deployment_secrets_pkey" PRIMARY KEY ("deployment_id","name")
);

-- CreateTable
CREATE TABLE "revisions" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "deployment_id" UUID NOT NULL,
    "source" TEXT NOT NULL,
    "source_config" JSONB NOT NULL,
    "source_revision_config" JSONB NOT NULL,
    "status" TEXT NOT NULL,
    "status_message" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "artifact" JSONB,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "revisions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "instances" (
    "id" UUID NOT NULL,
    "deployment_id" UUID NOT NULL,
    "revision_id" UUID NOT NULL,
    "driver" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "url" TEXT,
    "pid" INTEGER,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "instances_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "leases" (
    "name" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "leases_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "oauth_providers" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "provider_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_secret" TEXT,
    "auth_url" TEXT NOT NULL,
    "token_url" TEXT NOT NULL,
    "uses_pkce" BOOLEAN NOT NULL DEFAULT false,
    "code_challenge_method" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_providers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth_flows" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "provider_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "scopes" TEXT[],
    "state_hash" TEXT NOT NULL,
    "code_verifier" TEXT,
    "redirect_uri" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "error" TEXT,
    "error_description" TEXT,
    "token_id" UUID,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(6),

    CONSTRAINT "oauth_flows_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth_tokens" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "provider_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "scopes" TEXT[],
    "access_token" TEXT NOT NULL,
    "refresh_token" TEXT,
    "token_type" TEXT,
    "expires_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "revisions_deployment_id_seq_idx" ON "revisions"("deployment_id", "seq");

-- CreateIndex
CREATE INDEX "revisions_status_idx" ON "revisions"("status");

-- CreateIndex
CREATE INDEX "instances_deployment_id_idx" ON "instances"("deployment_id");

-- CreateIndex
CREATE UNIQUE INDEX "oauth_providers_tenant_id_provider_id_key" ON "oauth_providers"("tenant_id", "provider_id");

-- CreateIndex
CREATE INDEX "oauth_flows_tenant_id_provider_id_user_id_idx" ON "oauth_flows"("tenant_id", "provider_id", "user_id");

-- CreateIndex
CREATE INDEX "oauth_tokens_tenant_id_provider_id_user_id_idx" ON "oauth_tokens"("tenant_id", "provider_id", "user_id");

-- AddForeignKey
ALTER TABLE "deployment_secrets" ADD CONSTRAINT "deployment_secrets_deployment_id_fkey" FOREIGN KEY ("deployment_id") REFERENCES "deployments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "revisions" ADD CONSTRAINT "revisions_deployment_id_fkey" FOREIGN KEY ("deployment_id") REFERENCES "deployments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "instances" ADD CONSTRAINT "instances_deployment_id_fkey" FOREIGN KEY ("deployment_id") REFERENCES "deployments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
