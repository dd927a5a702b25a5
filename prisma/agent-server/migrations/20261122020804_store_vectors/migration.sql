-- CreateTable
CREATE TABLE "store_vectors" (
    "prefix" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "field_path" TEXT NOT NULL,
    "embedding" REAL[],

    CONSTRAINT "store_vectors_pkey" PRIMARY KEY ("prefix","key","field_path")
);

-- AddForeignKey
ALTER TABLE "store_vectors" ADD CONSTRAINT "store_vectors_prefix_key_fkey" FOREIGN KEY ("prefix", "key") REFERENCES "store_items"("prefix", "key") ON DELETE CASCADE ON UPDATE CASCADE;
