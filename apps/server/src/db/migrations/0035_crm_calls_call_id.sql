-- why: the telephony's call-ended report (duration, disposition) finds its call by the provider's call id
CREATE INDEX "crm_calls_call_id_idx" ON "crm_calls" USING btree ("call_id") WHERE "crm_calls"."call_id" is not null;
