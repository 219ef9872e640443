-- The pictures still without a grid2x thumbnail (queueMissingGrid2x in api/src/storage/processing.ts,
-- every clean-up pass). Partial: once older pictures have theirs it is empty, so the pass costs
-- nothing instead of reading every upload's metadata. Prisma cannot describe it, so it lives here only.
CREATE INDEX "Upload_lacks_grid2x_idx" ON "Upload" (id)
  WHERE status IN ('uploaded', 'claimed')
    AND metadata->'thumbnails'->>'preview' = 'true' AND metadata->'thumbnails'->'grid2x' IS NULL;
