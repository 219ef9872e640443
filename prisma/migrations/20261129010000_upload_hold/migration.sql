-- The start of a PUT to an upload URL in one statement (receiveUpload in api/src/storage/rules.ts):
-- the pending upload of this person, and room held in their quota for its first bytes. Read, then
-- reserved, it was two round trips of the three a small file's bytes took. The hold is the
-- reservation's own (scoutbase_reserve_quota), capped at the upload's limit. None is made for an
-- upload that is not pending, not this person's, or when `at_least` is over its limit. The caller
-- checks the URL's signature against the answered limit and gives the hold back when it fails.
CREATE FUNCTION "scoutbase_hold_upload"(upload_id uuid, owner_id uuid, at_least bigint, up_to bigint, quota bigint, ttl_seconds integer)
RETURNS TABLE (status text, held bigint, used bigint, reserved bigint, object_key text, max_size bigint)
LANGUAGE plpgsql AS E'
DECLARE
  found_status text\073
  found_key text\073
  found_max bigint\073
BEGIN
  SELECT u.status::text, u."objectKey", u."maxSize" INTO found_status, found_key, found_max
  FROM "Upload" u WHERE u.id = upload_id AND u."userId" = owner_id\073
  IF found_status IS DISTINCT FROM ''pending'' OR at_least > found_max THEN
    RETURN QUERY SELECT found_status, NULL::bigint, NULL::bigint, NULL::bigint, found_key, found_max\073
    RETURN\073
  END IF\073
  RETURN QUERY SELECT r.status, r.held, r.used, r.reserved, found_key, found_max
  FROM "scoutbase_reserve_quota"(upload_id, owner_id, at_least, LEAST(up_to, found_max), quota, ttl_seconds) r\073
END
';
