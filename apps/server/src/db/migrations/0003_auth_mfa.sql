CREATE TABLE "auth_user_mfa" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"required_factors" text[] DEFAULT '{}' NOT NULL,
	"totp_failed_attempts" integer DEFAULT 0 NOT NULL,
	"totp_locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "auth_totp_devices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"secret" text NOT NULL,
	"verified" boolean DEFAULT false NOT NULL,
	"last_used_step" bigint,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auth_user_mfa" ADD CONSTRAINT "auth_user_mfa_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_totp_devices" ADD CONSTRAINT "auth_totp_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "auth_totp_devices_user_name_key" ON "auth_totp_devices" USING btree ("user_id","name");