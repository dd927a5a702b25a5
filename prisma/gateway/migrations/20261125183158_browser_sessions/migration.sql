-- CreateTable
CREATE TABLE "browser_sessions" (
    "id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "api_key_id" UUID NOT NULL,
    "key_hash" TEXT NOT NULL,
    "workspace_id" UUID,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,
    "revoked_at" TIMESTAMPTZ(6),

    CONSTRAINT "browser_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "browser_sessions_token_hash_key" ON "browser_sessions"("token_hash");

-- CreateIndex
CREATE INDEX "browser_sessions_api_key_id_idx" ON "browser_sessions"("api_key_id");

-- CreateIndex
CREATE INDEX "browser_sessions_expires_at_idx" ON "browser_sessions"("expires_at");

-- AddForeignKey
ALTER TABLE "browser_sessions" ADD CONSTRAINT "browser_sessions_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;
