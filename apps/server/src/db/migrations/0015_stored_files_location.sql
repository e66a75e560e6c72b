-- Uploads may keep their bytes in an S3 bucket (location 's3', data null); every existing file stays in the database.
ALTER TABLE "stored_files" ALTER COLUMN "data" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "stored_files" ADD COLUMN "location" varchar(10) DEFAULT 'db' NOT NULL;--> statement-breakpoint
ALTER TABLE "stored_files" ADD CONSTRAINT "stored_files_location_check" CHECK (("stored_files"."location" = 'db' and "stored_files"."data" is not null) or ("stored_files"."location" = 's3' and "stored_files"."data" is null));