-- AlterEnum
ALTER TYPE "UploadStatus" ADD VALUE 'released';
