CREATE TABLE "auth_webauthn_credentials" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"login_method_id" uuid NOT NULL,
	"public_key" text NOT NULL,
	"counter" bigint DEFAULT 0 NOT NULL,
	"transports" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"rp_id" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "auth_webauthn_options" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"kind" text NOT NULL,
	"challenge" text NOT NULL,
	"user_handle" text,
	"email" text,
	"recover_token_hash" text,
	"rp_id" text NOT NULL,
	"origin" text NOT NULL,
	"user_verification" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_webauthn_recover_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"login_method_id" uuid NOT NULL,
	"email" text NOT NULL,
	"tenant_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auth_webauthn_credentials" ADD CONSTRAINT "auth_webauthn_credentials_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_webauthn_credentials" ADD CONSTRAINT "auth_webauthn_credentials_login_method_id_auth_login_methods_id_fk" FOREIGN KEY ("login_method_id") REFERENCES "public"."auth_login_methods"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_webauthn_recover_tokens" ADD CONSTRAINT "auth_webauthn_recover_tokens_login_method_id_auth_login_methods_id_fk" FOREIGN KEY ("login_method_id") REFERENCES "public"."auth_login_methods"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auth_webauthn_credentials_user_id_idx" ON "auth_webauthn_credentials" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "auth_webauthn_options_expires_at_idx" ON "auth_webauthn_options" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "auth_login_methods_webauthn_email_key" ON "auth_login_methods" USING btree (lower("email")) WHERE "auth_login_methods"."recipe_id" = 'webauthn';