-- When what a person may see last changed: the live connection's first event tells a page read
-- since then that it need not be read again (accessChanged(since:), api/src/projects/types.ts).
ALTER TABLE "User" ADD COLUMN "accessChangedAt" TIMESTAMP(3);
