-- The name sort's key: lower case, and runs of digits zero-padded to 20 places so that "shot 9"
-- sorts before "shot 10" under the database's byte-wise collation (longer runs stay as they are).
-- (No semicolons inside the body: PostgreSQL migrations are applied statement by statement.)
CREATE FUNCTION "scoutbase_sort_name"(name text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(
    CASE WHEN m.part[1] ~ '^[0-9]' AND length(m.part[1]) < 20 THEN lpad(m.part[1], 20, '0') ELSE m.part[1] END,
    '' ORDER BY m.n), '')
  FROM regexp_matches(lower(name), '[0-9]+|[^0-9]+', 'g') WITH ORDINALITY AS m(part, n)
$$;

-- Generated, so every insert and rename keeps it in step with name, whoever writes the row.
ALTER TABLE "File" ADD COLUMN "sortName" TEXT NOT NULL GENERATED ALWAYS AS ("scoutbase_sort_name"(name)) STORED;
ALTER TABLE "Folder" ADD COLUMN "sortName" TEXT NOT NULL GENERATED ALWAYS AS ("scoutbase_sort_name"(name)) STORED;
ALTER TABLE "Gallery" ADD COLUMN "sortName" TEXT NOT NULL GENERATED ALWAYS AS ("scoutbase_sort_name"(name)) STORED;

-- CreateIndex
CREATE INDEX "File_ownerId_folderId_sortName_id_idx" ON "File"("ownerId", "folderId", "sortName", "id");

-- CreateIndex
CREATE INDEX "Folder_ownerId_parentId_sortName_id_idx" ON "Folder"("ownerId", "parentId", "sortName", "id");
