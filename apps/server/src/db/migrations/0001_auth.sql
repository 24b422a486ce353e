CREATE TABLE "auth_login_methods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"recipe_id" text NOT NULL,
	"email" text,
	"phone_number" text,
	"third_party_id" text,
	"third_party_user_id" text,
	"verified" boolean DEFAULT false NOT NULL,
	"tenant_ids" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_sessions" (
	"handle" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"recipe_user_id" uuid NOT NULL,
	"tenant_id" text NOT NULL,
	"claims" jsonb NOT NULL,
	"anti_csrf_token" text,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text
);
--> statement-breakpoint
CREATE TABLE "auth_refresh_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"session_handle" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"rotated_at" timestamp with time zone,
	"child_hash" text
);
--> statement-breakpoint
CREATE TABLE "auth_signing_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"algorithm" text NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"private_jwk" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"sign_until" timestamp with time zone NOT NULL,
	"verify_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_passwordless_devices" (
	"pre_auth_session_id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"email" text,
	"phone_number" text,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_passwordless_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"pre_auth_session_id" text NOT NULL,
	"user_input_code_hash" text NOT NULL,
	"link_code_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "auth_passwordless_codes_link_code_hash_unique" UNIQUE("link_code_hash")
);
--> statement-breakpoint
CREATE TABLE "auth_rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_email_verification_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"login_method_id" uuid NOT NULL,
	"email" text NOT NULL,
	"tenant_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auth_login_methods" ADD CONSTRAINT "auth_login_methods_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD CONSTRAINT "auth_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_refresh_tokens" ADD CONSTRAINT "auth_refresh_tokens_session_handle_auth_sessions_handle_fk" FOREIGN KEY ("session_handle") REFERENCES "public"."auth_sessions"("handle") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_passwordless_codes" ADD CONSTRAINT "auth_passwordless_codes_pre_auth_session_id_auth_passwordless_devices_pre_auth_session_id_fk" FOREIGN KEY ("pre_auth_session_id") REFERENCES "public"."auth_passwordless_devices"("pre_auth_session_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_email_verification_tokens" ADD CONSTRAINT "auth_email_verification_tokens_login_method_id_auth_login_methods_id_fk" FOREIGN KEY ("login_method_id") REFERENCES "public"."auth_login_methods"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auth_login_methods_user_id_idx" ON "auth_login_methods" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "auth_login_methods_passwordless_email_key" ON "auth_login_methods" USING btree (lower("email")) WHERE "auth_login_methods"."recipe_id" = 'passwordless' and "auth_login_methods"."email" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "auth_login_methods_passwordless_phone_key" ON "auth_login_methods" USING btree ("phone_number") WHERE "auth_login_methods"."recipe_id" = 'passwordless' and "auth_login_methods"."phone_number" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "auth_login_methods_third_party_key" ON "auth_login_methods" USING btree ("third_party_id","third_party_user_id") WHERE "auth_login_methods"."recipe_id" = 'thirdparty';--> statement-breakpoint
CREATE INDEX "auth_sessions_user_id_idx" ON "auth_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "auth_refresh_tokens_session_idx" ON "auth_refresh_tokens" USING btree ("session_handle");--> statement-breakpoint
CREATE INDEX "auth_passwordless_devices_email_idx" ON "auth_passwordless_devices" USING btree ("tenant_id","email");--> statement-breakpoint
CREATE INDEX "auth_passwordless_devices_phone_idx" ON "auth_passwordless_devices" USING btree ("tenant_id","phone_number");--> statement-breakpoint
CREATE INDEX "auth_passwordless_codes_device_idx" ON "auth_passwordless_codes" USING btree ("pre_auth_session_id");