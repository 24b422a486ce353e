CREATE TABLE "vendor_health" (
	"vendor" text PRIMARY KEY NOT NULL,
	"state" text DEFAULT 'closed' NOT NULL,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"opened_at" timestamp with time zone,
	"last_error" text,
	"last_failure_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"recent_failures" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "vendor_attempts" jsonb DEFAULT '[]'::jsonb NOT NULL;