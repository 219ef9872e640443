-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "dueNotifiedAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "Task_status_dueDate_idx" ON "Task"("status", "dueDate");
