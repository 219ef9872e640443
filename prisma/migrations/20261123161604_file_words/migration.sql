-- The words of file names for search (searchSql in api/src/files/rules.ts): every run of letters
-- and digits of a file's name and original name, lower case, with the file's date, so that the
-- files holding a word can be read newest first and the read stops at the page. Word is every
-- such word ever seen (never pruned: a word no file holds any more finds nothing), with a
-- trigram index to find the words that contain a query word ("house" is in "warehouse").
-- Kept by triggers on "File", so every way of writing files keeps them right.
-- CreateTable
CREATE TABLE "FileWord" (
    "word" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "fileId" UUID NOT NULL
);

-- CreateTable
CREATE TABLE "Word" (
    "word" TEXT NOT NULL,

    CONSTRAINT "Word_pkey" PRIMARY KEY ("word")
);

-- CreateIndex
CREATE UNIQUE INDEX "FileWord_word_createdAt_fileId_key" ON "FileWord"("word", "createdAt", "fileId");

CREATE INDEX "Word_word_trgm_idx" ON "Word" USING GIN ("word" gin_trgm_ops);

-- Separators are the ASCII characters other than letters and digits: a query word made of
-- anything else lies inside one word of a name, so it is in the name exactly when it is in one of
-- the name's words (searchSql relies on that).
CREATE FUNCTION "scoutbase_file_words"(name text, "originalName" text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT w), '{}')
  FROM regexp_split_to_table(lower(name) || ' ' || lower("originalName"), '[^0-9a-z\u0080-\U0010ffff]+') AS w
  WHERE w <> ''
$$;

-- Statement-level triggers see all the rows of a statement at once, so a bulk insert of a
-- million files adds their words in one pass. New words go in in one order, so that two uploads
-- adding the same new words wait for each other instead of deadlocking. The bodies are E'' strings with \073 for the
-- semicolons: migrations are applied statement by statement, split at every semicolon.
CREATE FUNCTION "scoutbase_file_words_added"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO "Word" (word)
    SELECT DISTINCT w FROM added_files f, unnest("scoutbase_file_words"(f.name, f."originalName")) AS w
    ORDER BY w ON CONFLICT DO NOTHING\073
  INSERT INTO "FileWord" (word, "createdAt", "fileId")
    SELECT w, f."createdAt", f.id FROM added_files f, unnest("scoutbase_file_words"(f.name, f."originalName")) AS w\073
  RETURN NULL\073
END';

CREATE FUNCTION "scoutbase_file_words_removed"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  DELETE FROM "FileWord" fw USING removed_files f, unnest("scoutbase_file_words"(f.name, f."originalName")) AS w
    WHERE fw.word = w AND fw."createdAt" = f."createdAt" AND fw."fileId" = f.id\073
  RETURN NULL\073
END';

-- Only rows whose name, original name or date changed: most updates (tags, metadata) leave
-- the words alone.
CREATE FUNCTION "scoutbase_file_words_changed"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  DELETE FROM "FileWord" fw USING old_files o JOIN new_files n ON n.id = o.id,
      unnest("scoutbase_file_words"(o.name, o."originalName")) AS w
    WHERE (o.name, o."originalName", o."createdAt") IS DISTINCT FROM (n.name, n."originalName", n."createdAt")
      AND fw.word = w AND fw."createdAt" = o."createdAt" AND fw."fileId" = o.id\073
  INSERT INTO "Word" (word)
    SELECT DISTINCT w FROM old_files o JOIN new_files n ON n.id = o.id,
      unnest("scoutbase_file_words"(n.name, n."originalName")) AS w
    WHERE (o.name, o."originalName") IS DISTINCT FROM (n.name, n."originalName")
    ORDER BY w ON CONFLICT DO NOTHING\073
  INSERT INTO "FileWord" (word, "createdAt", "fileId")
    SELECT w, n."createdAt", n.id FROM old_files o JOIN new_files n ON n.id = o.id,
      unnest("scoutbase_file_words"(n.name, n."originalName")) AS w
    WHERE (o.name, o."originalName", o."createdAt") IS DISTINCT FROM (n.name, n."originalName", n."createdAt")\073
  RETURN NULL\073
END';

CREATE TRIGGER "File_words_added" AFTER INSERT ON "File"
  REFERENCING NEW TABLE AS added_files FOR EACH STATEMENT EXECUTE FUNCTION "scoutbase_file_words_added"();
CREATE TRIGGER "File_words_removed" AFTER DELETE ON "File"
  REFERENCING OLD TABLE AS removed_files FOR EACH STATEMENT EXECUTE FUNCTION "scoutbase_file_words_removed"();
CREATE TRIGGER "File_words_changed" AFTER UPDATE ON "File"
  REFERENCING OLD TABLE AS old_files NEW TABLE AS new_files FOR EACH STATEMENT EXECUTE FUNCTION "scoutbase_file_words_changed"();

-- Files that existed before this migration.
INSERT INTO "Word" (word) SELECT DISTINCT w FROM "File" f, unnest("scoutbase_file_words"(f.name, f."originalName")) AS w;
INSERT INTO "FileWord" (word, "createdAt", "fileId")
  SELECT w, f."createdAt", f.id FROM "File" f, unnest("scoutbase_file_words"(f.name, f."originalName")) AS w;
