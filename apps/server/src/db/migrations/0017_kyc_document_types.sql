-- A KYC document is one of the three types the product offers (KYC_DOCUMENT_TYPES). Earlier demo activity seeded
-- 'id_card' and 'driving_license', which every KYC list refused to answer with (500): they become the type they meant,
-- and from here the database refuses any other type.
UPDATE "kyc_documents" SET "type" = 'national_id' WHERE lower("type") in ('id_card', 'identity_card', 'national_id_card');--> statement-breakpoint
UPDATE "kyc_documents" SET "type" = 'driver_license' WHERE lower("type") in ('driving_license', 'driving_licence', 'drivers_license', 'driver_licence');--> statement-breakpoint
UPDATE "kyc_documents" SET "type" = 'passport' WHERE lower("type") = 'passport' and "type" <> 'passport';--> statement-breakpoint
ALTER TABLE "kyc_documents" ADD CONSTRAINT "kyc_documents_type_check" CHECK ("kyc_documents"."type" in ('national_id', 'passport', 'driver_license'));
