-- File search finds a tag by its beginning ("canon" finds "canon eos r5", see searchSql in
-- api/src/files/rules.ts). The tags of a file as one text, each tag after a unit separator, so
-- that "a tag starts with the query" is LIKE '%<separator>query%', which a trigram index answers.
-- Prisma cannot describe this index, so it lives here only (like the other search indexes).
-- array_to_string is only STABLE for arrays in general, but for text[] it cannot change.
CREATE FUNCTION "scoutbase_tags_text"(tags text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT E'\x1f' || array_to_string(tags, E'\x1f') $$;

CREATE INDEX "File_tags_prefix_idx" ON "File" USING GIN ("scoutbase_tags_text"(tags) gin_trgm_ops);

-- As for the other search indexes: a short pending list, so a search reads little of it.
ALTER INDEX "File_tags_prefix_idx" SET (gin_pending_list_limit = 256);
