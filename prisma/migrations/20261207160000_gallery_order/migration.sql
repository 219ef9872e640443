-- AlterTable
ALTER TABLE "Gallery" ADD COLUMN     "photoOrder" TEXT NOT NULL DEFAULT 'manual';
