-- CreateIndex
CREATE INDEX "File_createdAt_id_idx" ON "File"("createdAt", "id");

-- File search (searchSql in api/src/files/rules.ts). Prisma cannot describe these indexes, so they
-- live here only: migrate:check compares what Prisma can describe and leaves them alone.
-- A name or original name that starts with the query, in name order, per way in: the viewer's own
-- files, public files (partial: few on most servers). "C" is the byte order in which a prefix is
-- one contiguous range of the index.
CREATE INDEX "File_ownerId_name_lower_idx" ON "File" ("ownerId", (lower("name") COLLATE "C"));
CREATE INDEX "File_ownerId_originalName_lower_idx" ON "File" ("ownerId", (lower("originalName") COLLATE "C"));
CREATE INDEX "File_public_name_lower_idx" ON "File" ((lower("name") COLLATE "C")) WHERE "isPublic";
CREATE INDEX "File_public_originalName_lower_idx" ON "File" ((lower("originalName") COLLATE "C")) WHERE "isPublic";

-- The tags and trigram indexes answer searches, and every search reads their whole pending list
-- of recent inserts not yet merged (hundreds of ms with the default 4 MB after a bulk import).
-- A smaller list is merged more often, so a search reads at most a little of it.
ALTER INDEX "File_tags_idx" SET (gin_pending_list_limit = 256);
ALTER INDEX "File_name_trgm_idx" SET (gin_pending_list_limit = 256);
ALTER INDEX "File_originalName_trgm_idx" SET (gin_pending_list_limit = 256);
