-- Whether an opinion counts: its reviewer is named by the deployment (DISPUTE_REVIEWERS).
-- Existing rows start uncounted, the server sets the column from the list when it starts.

-- AlterTable
ALTER TABLE "dispute_opinion" ADD COLUMN     "counted" BOOLEAN NOT NULL DEFAULT false;
