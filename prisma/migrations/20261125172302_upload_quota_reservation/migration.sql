-- AlterTable
ALTER TABLE "Upload" ADD COLUMN     "reservedBytes" BIGINT NOT NULL DEFAULT 0;
