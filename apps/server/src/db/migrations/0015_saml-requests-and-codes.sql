CREATE TABLE "auth_saml_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"name_id" text NOT NULL,
	"email" text,
	"email_verified" boolean NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_saml_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"state" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
