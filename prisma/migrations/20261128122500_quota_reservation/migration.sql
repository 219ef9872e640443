-- A quota reservation (reserveQuota in api/src/storage/rules.ts) in one statement: it locks the
-- person and the upload, reads what the person keeps and holds under that lock, and moves the
-- upload's hold. As an interactive transaction it was five round trips (BEGIN, three statements,
-- COMMIT), a fifth of the time of a small file's upload on the embedded database. Each statement
-- of a plpgsql function sees what committed before it began, so the read after the lock counts
-- every reservation that committed while this one waited. The bodies are E'' strings with \073
-- for the semicolons: migrations are applied statement by statement, split at every semicolon.

-- What a person keeps (kept by the storage_usage triggers) and holds for uploads whose bytes are
-- arriving, all but `except_upload`: the one definition quotaState and the reservation read.
-- Prisma keeps times as UTC without a zone, so they are compared with now() in UTC whatever the
-- server's time zone.
CREATE FUNCTION "scoutbase_quota_state"(owner_id uuid, except_upload uuid) RETURNS TABLE (used bigint, reserved bigint)
LANGUAGE sql STABLE AS E'
  SELECT
    (SELECT COALESCE(SUM("usedBytes"), 0)::bigint FROM "StorageUsage" WHERE "userId" = owner_id),
    (SELECT COALESCE(SUM("reservedBytes"), 0)::bigint FROM "Upload"
      WHERE "userId" = owner_id AND status = ''pending'' AND "expiresAt" > (now() AT TIME ZONE ''UTC'')
        AND (except_upload IS NULL OR id <> except_upload))
';

-- Holds at least `at_least` bytes for the upload, up to `up_to` if that fits (never less than it
-- holds already), until `ttl_seconds` from now. Answers the upload's status (null: not this
-- person's upload), the bytes now held (null: refused, there is no room for `at_least`), and
-- what the person kept and held for other uploads when it was decided.
CREATE FUNCTION "scoutbase_reserve_quota"(upload_id uuid, owner_id uuid, at_least bigint, up_to bigint, quota bigint, ttl_seconds integer)
RETURNS TABLE (status text, held bigint, used bigint, reserved bigint)
LANGUAGE plpgsql AS E'
DECLARE
  upload_status text\073
  held_before bigint\073
  kept bigint\073
  others bigint\073
  room bigint\073
  holding bigint\073
BEGIN
  -- NO KEY UPDATE: reservations of one person queue behind each other, rows that merely reference
  -- the person (a new file, a notification) do not queue behind them.
  SELECT u.status::text, u."reservedBytes" INTO upload_status, held_before
  FROM "Upload" u JOIN "User" owner ON owner.id = u."userId"
  WHERE u.id = upload_id AND owner.id = owner_id
  FOR NO KEY UPDATE OF owner, u\073
  IF upload_status IS DISTINCT FROM ''pending'' THEN
    RETURN QUERY SELECT upload_status, NULL::bigint, NULL::bigint, NULL::bigint\073
    RETURN\073
  END IF\073
  SELECT q.used, q.reserved INTO kept, others FROM "scoutbase_quota_state"(owner_id, upload_id) q\073
  room := quota - kept - others\073
  IF at_least > room THEN
    RETURN QUERY SELECT upload_status, NULL::bigint, kept, others\073
    RETURN\073
  END IF\073
  holding := GREATEST(at_least, LEAST(GREATEST(up_to, held_before), room))\073
  UPDATE "Upload" SET "reservedBytes" = holding, "expiresAt" = (clock_timestamp() AT TIME ZONE ''UTC'') + make_interval(secs => ttl_seconds)
  WHERE id = upload_id\073
  RETURN QUERY SELECT upload_status, holding, kept, others\073
END
';
