-- The bytes each person keeps, for the quota (quotaState in api/src/storage/rules.ts). Summing
-- every file, version and unfiled upload of the person on each upload grew with their files (20 ms
-- a read on the embedded database at 10,000 files, twice per upload). These two tables answer in
-- one row read. StoredObject counts the rows that hold each object of a person (a file and its
-- current version share their bytes, which count once), and StorageUsage keeps the sum of the sizes
-- of the objects held. Kept by triggers on File, FileVersion and Upload, so every way of writing
-- them (the app, imports, cleanup, cascades of a deleted account) keeps them right.

-- CreateTable
CREATE TABLE "StoredObject" (
    "ownerId" UUID NOT NULL,
    "objectPath" TEXT NOT NULL,
    "size" BIGINT NOT NULL,
    "holders" INTEGER NOT NULL,

    CONSTRAINT "StoredObject_pkey" PRIMARY KEY ("ownerId","objectPath")
);

-- CreateTable
CREATE TABLE "StorageUsage" (
    "userId" UUID NOT NULL,
    "usedBytes" BIGINT NOT NULL,

    CONSTRAINT "StorageUsage_pkey" PRIMARY KEY ("userId")
);

-- CreateIndex
CREATE INDEX "StoredObject_objectPath_idx" ON "StoredObject"("objectPath");

-- Adds `deltas` holders to each (owner, path) and moves the owners' totals by the sizes of the
-- objects that became held (0 holders before) or free (0 after). Rows are changed in key order,
-- so that two transactions touching the same objects wait for each other instead of deadlocking,
-- and each person's total comes last. The bodies are E'' strings with \073 for the semicolons:
-- migrations are applied statement by statement, split at every semicolon.
CREATE FUNCTION "scoutbase_hold"(owners uuid[], paths text[], sizes bigint[], deltas int[]) RETURNS void
LANGUAGE plpgsql AS E'
BEGIN
  -- Most updates of an upload (its reservation, its metadata) change no holder.
  IF owners IS NULL THEN
    RETURN\073
  END IF\073
  WITH changes AS MATERIALIZED (
    SELECT owner, path, max(size) AS size, sum(delta)::int AS delta
    FROM unnest(owners, paths, sizes, deltas) AS c(owner, path, size, delta)
    WHERE owner IS NOT NULL
    GROUP BY owner, path
    HAVING sum(delta) <> 0
  ), held AS (
    INSERT INTO "StoredObject" AS so ("ownerId", "objectPath", size, holders)
      SELECT owner, path, size, delta FROM changes ORDER BY owner, path
      ON CONFLICT ("ownerId", "objectPath") DO UPDATE SET holders = so.holders + EXCLUDED.holders
      RETURNING so."ownerId", so."objectPath", so.size, so.holders
  )
  INSERT INTO "StorageUsage" AS u ("userId", "usedBytes")
    SELECT h."ownerId", sum(CASE
        WHEN h.holders - c.delta <= 0 AND h.holders > 0 THEN h.size
        WHEN h.holders - c.delta > 0 AND h.holders <= 0 THEN -h.size
        ELSE 0 END)
    FROM held h JOIN changes c ON c.owner = h."ownerId" AND c.path = h."objectPath"
    GROUP BY h."ownerId" ORDER BY h."ownerId"
    ON CONFLICT ("userId") DO UPDATE SET "usedBytes" = u."usedBytes" + EXCLUDED."usedBytes"\073
  DELETE FROM "StoredObject" so USING unnest(owners, paths) AS c(owner, path)
    WHERE so."ownerId" = c.owner AND so."objectPath" = c.path AND so.holders <= 0\073
END';

-- A file holds its current bytes.
CREATE FUNCTION "scoutbase_file_held"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''INSERT'' THEN
    PERFORM "scoutbase_hold"(array_agg("ownerId"), array_agg("objectPath"), array_agg(size), array_agg(1))
      FROM new_files\073
  ELSIF TG_OP = ''DELETE'' THEN
    PERFORM "scoutbase_hold"(array_agg("ownerId"), array_agg("objectPath"), array_agg(size), array_agg(-1))
      FROM old_files\073
  ELSE
    -- Only rows whose bytes or owner changed: most updates (names, tags, metadata) leave them.
    PERFORM "scoutbase_hold"(array_agg(c.owner), array_agg(c.path), array_agg(c.size), array_agg(c.delta))
      FROM old_files o JOIN new_files n ON n.id = o.id,
        LATERAL (VALUES (o."ownerId", o."objectPath", o.size, -1), (n."ownerId", n."objectPath", n.size, 1))
          AS c(owner, path, size, delta)
      WHERE (o."ownerId", o."objectPath", o.size) IS DISTINCT FROM (n."ownerId", n."objectPath", n.size)\073
  END IF\073
  RETURN NULL\073
END';

-- A version holds its bytes for the file's owner. A version deleted with its file (the cascade
-- runs before the file's own trigger, with the file already gone) finds the owner by its row.
CREATE FUNCTION "scoutbase_version_held"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP IN (''DELETE'', ''UPDATE'') THEN
    PERFORM "scoutbase_hold"(array_agg(found.owner), array_agg(o."objectPath"), array_agg(o.size), array_agg(-1))
      FROM old_versions o,
        LATERAL (SELECT coalesce(
          (SELECT f."ownerId" FROM "File" f WHERE f.id = o."fileId"),
          (SELECT so."ownerId" FROM "StoredObject" so WHERE so."objectPath" = o."objectPath" AND so.holders > 0
            ORDER BY so."ownerId" LIMIT 1)) AS owner) AS found\073
  END IF\073
  IF TG_OP IN (''INSERT'', ''UPDATE'') THEN
    PERFORM "scoutbase_hold"(array_agg(f."ownerId"), array_agg(n."objectPath"), array_agg(n.size), array_agg(1))
      FROM new_versions n JOIN "File" f ON f.id = n."fileId"\073
  END IF\073
  RETURN NULL\073
END';

-- An upload holds its bytes for its uploader once they arrived, until a file claims them (then
-- the file holds them) or it is released.
CREATE FUNCTION "scoutbase_upload_held"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP IN (''DELETE'', ''UPDATE'') THEN
    PERFORM "scoutbase_hold"(array_agg("userId"), array_agg(''/objects/uploads/'' || id::text), array_agg(size), array_agg(-1))
      FROM old_uploads WHERE status = ''uploaded'' AND size IS NOT NULL\073
  END IF\073
  IF TG_OP IN (''INSERT'', ''UPDATE'') THEN
    PERFORM "scoutbase_hold"(array_agg("userId"), array_agg(''/objects/uploads/'' || id::text), array_agg(size), array_agg(1))
      FROM new_uploads WHERE status = ''uploaded'' AND size IS NOT NULL\073
  END IF\073
  RETURN NULL\073
END';

CREATE TRIGGER "File_held_added" AFTER INSERT ON "File"
  REFERENCING NEW TABLE AS new_files FOR EACH STATEMENT EXECUTE FUNCTION "scoutbase_file_held"();
CREATE TRIGGER "File_held_removed" AFTER DELETE ON "File"
  REFERENCING OLD TABLE AS old_files FOR EACH STATEMENT EXECUTE FUNCTION "scoutbase_file_held"();
CREATE TRIGGER "File_held_changed" AFTER UPDATE ON "File"
  REFERENCING OLD TABLE AS old_files NEW TABLE AS new_files FOR EACH STATEMENT EXECUTE FUNCTION "scoutbase_file_held"();
CREATE TRIGGER "FileVersion_held_added" AFTER INSERT ON "FileVersion"
  REFERENCING NEW TABLE AS new_versions FOR EACH STATEMENT EXECUTE FUNCTION "scoutbase_version_held"();
CREATE TRIGGER "FileVersion_held_removed" AFTER DELETE ON "FileVersion"
  REFERENCING OLD TABLE AS old_versions FOR EACH STATEMENT EXECUTE FUNCTION "scoutbase_version_held"();
CREATE TRIGGER "FileVersion_held_changed" AFTER UPDATE ON "FileVersion"
  REFERENCING OLD TABLE AS old_versions NEW TABLE AS new_versions FOR EACH STATEMENT EXECUTE FUNCTION "scoutbase_version_held"();
CREATE TRIGGER "Upload_held_added" AFTER INSERT ON "Upload"
  REFERENCING NEW TABLE AS new_uploads FOR EACH STATEMENT EXECUTE FUNCTION "scoutbase_upload_held"();
CREATE TRIGGER "Upload_held_removed" AFTER DELETE ON "Upload"
  REFERENCING OLD TABLE AS old_uploads FOR EACH STATEMENT EXECUTE FUNCTION "scoutbase_upload_held"();
CREATE TRIGGER "Upload_held_changed" AFTER UPDATE ON "Upload"
  REFERENCING OLD TABLE AS old_uploads NEW TABLE AS new_uploads FOR EACH STATEMENT EXECUTE FUNCTION "scoutbase_upload_held"();

-- What existed before this migration.
INSERT INTO "StoredObject" ("ownerId", "objectPath", size, holders)
  SELECT owner, path, max(size), count(*) FROM (
    SELECT "ownerId" AS owner, "objectPath" AS path, size FROM "File"
    UNION ALL
    SELECT f."ownerId", v."objectPath", v.size FROM "FileVersion" v JOIN "File" f ON f.id = v."fileId"
    UNION ALL
    SELECT "userId", '/objects/uploads/' || id::text, size FROM "Upload" WHERE status = 'uploaded' AND size IS NOT NULL
  ) AS held GROUP BY owner, path;
INSERT INTO "StorageUsage" ("userId", "usedBytes")
  SELECT "ownerId", sum(size) FROM "StoredObject" GROUP BY "ownerId";
