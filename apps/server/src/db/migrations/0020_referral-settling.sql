ALTER TABLE "referral_codes" ADD COLUMN "owner_ip_hash" text;--> statement-breakpoint
ALTER TABLE "referrals" ADD COLUMN "ineligible_reason" text;--> statement-breakpoint
ALTER TABLE "referrals" ADD COLUMN "settles_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "referrals_signup_ip_idx" ON "referrals" USING btree ("referrer_id","signup_ip_hash");--> statement-breakpoint
CREATE INDEX "referrals_fingerprint_idx" ON "referrals" USING btree ("referrer_id","payment_fingerprint");