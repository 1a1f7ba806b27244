-- AlterTable
ALTER TABLE "envelope" DROP COLUMN "payload";
