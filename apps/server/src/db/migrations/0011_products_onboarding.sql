CREATE TABLE "purchases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"product_id" text NOT NULL,
	"kind" text NOT NULL,
	"product" jsonb NOT NULL,
	"status" text DEFAULT 'pending_payment' NOT NULL,
	"paid_with" text NOT NULL,
	"payment_id" uuid,
	"credits_spent" integer,
	"set_id" uuid,
	"trained_model_id" uuid,
	"images_total" integer DEFAULT 0 NOT NULL,
	"error" text,
	"paid_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	"notified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "purchases_images_total_range" CHECK ("purchases"."images_total" >= 0)
);
--> statement-breakpoint
CREATE TABLE "user_profiles" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"use_case" text,
	"country" text,
	"phone" text,
	"referral_source" text,
	"gender" text,
	"completed_at" timestamp with time zone,
	"skipped_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_amount_positive";--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "purchase_id" uuid;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_set_id_training_sets_id_fk" FOREIGN KEY ("set_id") REFERENCES "public"."training_sets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_trained_model_id_trained_models_id_fk" FOREIGN KEY ("trained_model_id") REFERENCES "public"."trained_models"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_profiles" ADD CONSTRAINT "user_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "purchases_user_created_idx" ON "purchases" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "purchases_payment_idx" ON "purchases" USING btree ("payment_id");--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_purchase_idx" ON "jobs" USING btree ("purchase_id") WHERE "jobs"."purchase_id" is not null;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_amount_positive" CHECK ("payments"."amount_cents" > 0 and "payments"."credits" >= 0);--> statement-breakpoint
-- People who signed up before onboarding existed are not sent to it: they count as having skipped it.
INSERT INTO "user_profiles" ("user_id", "skipped_at") SELECT "id", now() FROM "users" ON CONFLICT DO NOTHING;
