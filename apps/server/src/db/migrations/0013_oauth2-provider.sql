CREATE TABLE "auth_oauth_payloads" (
	"model" text NOT NULL,
	"id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"grant_id" text,
	"user_code" text,
	"uid" text,
	"expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "auth_oauth_payloads_model_id_pk" PRIMARY KEY("model","id")
);
--> statement-breakpoint
CREATE TABLE "auth_oauth_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "auth_oauth_payloads_grant_id_idx" ON "auth_oauth_payloads" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "auth_oauth_payloads_uid_idx" ON "auth_oauth_payloads" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "auth_oauth_payloads_expires_at_idx" ON "auth_oauth_payloads" USING btree ("expires_at");