-- CreateEnum
CREATE TYPE "PickValue" AS ENUM ('yes', 'no', 'maybe');

-- AlterEnum
ALTER TYPE "ActivityAction" ADD VALUE 'photo_commented';

-- CreateTable
CREATE TABLE "ReviewLink" (
    "id" UUID NOT NULL,
    "galleryId" UUID NOT NULL,
    "createdById" UUID NOT NULL,
    "label" TEXT,
    "expiresAt" TIMESTAMP(3),
    "allowDownload" BOOLEAN NOT NULL DEFAULT false,
    "passwordHash" TEXT,
    "tokenHash" TEXT NOT NULL,
    "revokedAt" TIMESTAMP(3),
    "lastReviewAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReviewLink_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PhotoComment" (
    "id" UUID NOT NULL,
    "galleryId" UUID NOT NULL,
    "fileId" UUID NOT NULL,
    "authorId" UUID,
    "reviewLinkId" UUID,
    "reviewerName" TEXT,
    "body" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PhotoComment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PhotoPick" (
    "id" UUID NOT NULL,
    "galleryId" UUID NOT NULL,
    "fileId" UUID NOT NULL,
    "userId" UUID,
    "reviewLinkId" UUID,
    "reviewerName" TEXT,
    "pick" "PickValue" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PhotoPick_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ReviewLink_tokenHash_key" ON "ReviewLink"("tokenHash");

-- CreateIndex
CREATE INDEX "ReviewLink_galleryId_createdAt_idx" ON "ReviewLink"("galleryId", "createdAt");

-- CreateIndex
CREATE INDEX "PhotoComment_galleryId_createdAt_idx" ON "PhotoComment"("galleryId", "createdAt");

-- CreateIndex
CREATE INDEX "PhotoComment_fileId_createdAt_idx" ON "PhotoComment"("fileId", "createdAt");

-- CreateIndex
CREATE INDEX "PhotoPick_galleryId_fileId_idx" ON "PhotoPick"("galleryId", "fileId");

-- CreateIndex
CREATE UNIQUE INDEX "PhotoPick_reviewLinkId_reviewerName_fileId_key" ON "PhotoPick"("reviewLinkId", "reviewerName", "fileId");

-- CreateIndex
CREATE UNIQUE INDEX "PhotoPick_galleryId_userId_fileId_key" ON "PhotoPick"("galleryId", "userId", "fileId");

-- AddForeignKey
ALTER TABLE "ReviewLink" ADD CONSTRAINT "ReviewLink_galleryId_fkey" FOREIGN KEY ("galleryId") REFERENCES "Gallery"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewLink" ADD CONSTRAINT "ReviewLink_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PhotoComment" ADD CONSTRAINT "PhotoComment_galleryId_fkey" FOREIGN KEY ("galleryId") REFERENCES "Gallery"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PhotoComment" ADD CONSTRAINT "PhotoComment_fileId_fkey" FOREIGN KEY ("fileId") REFERENCES "File"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PhotoComment" ADD CONSTRAINT "PhotoComment_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PhotoComment" ADD CONSTRAINT "PhotoComment_reviewLinkId_fkey" FOREIGN KEY ("reviewLinkId") REFERENCES "ReviewLink"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PhotoPick" ADD CONSTRAINT "PhotoPick_galleryId_fkey" FOREIGN KEY ("galleryId") REFERENCES "Gallery"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PhotoPick" ADD CONSTRAINT "PhotoPick_fileId_fkey" FOREIGN KEY ("fileId") REFERENCES "File"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PhotoPick" ADD CONSTRAINT "PhotoPick_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PhotoPick" ADD CONSTRAINT "PhotoPick_reviewLinkId_fkey" FOREIGN KEY ("reviewLinkId") REFERENCES "ReviewLink"("id") ON DELETE CASCADE ON UPDATE CASCADE;
