CREATE TABLE "trained_models" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"trigger_word" text NOT NULL,
	"subject" text NOT NULL,
	"status" text DEFAULT 'training' NOT NULL,
	"set_id" uuid,
	"image_count" integer NOT NULL,
	"trainer_model_id" text NOT NULL,
	"base_model_id" text NOT NULL,
	"provider" text NOT NULL,
	"provider_model" text,
	"steps" integer NOT NULL,
	"job_id" uuid,
	"weights_key" text,
	"weights_content_type" text,
	"cover_key" text,
	"cost" integer NOT NULL,
	"duration_ms" integer,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "training_images" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"set_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"filename" text NOT NULL,
	"storage_key" text NOT NULL,
	"thumbnail_key" text NOT NULL,
	"content_type" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" integer NOT NULL,
	"phash" text NOT NULL,
	"hints" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "training_sets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "trained_models" ADD CONSTRAINT "trained_models_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trained_models" ADD CONSTRAINT "trained_models_set_id_training_sets_id_fk" FOREIGN KEY ("set_id") REFERENCES "public"."training_sets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trained_models" ADD CONSTRAINT "trained_models_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_images" ADD CONSTRAINT "training_images_set_id_training_sets_id_fk" FOREIGN KEY ("set_id") REFERENCES "public"."training_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_images" ADD CONSTRAINT "training_images_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_sets" ADD CONSTRAINT "training_sets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trained_models_user_created_idx" ON "trained_models" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "trained_models_job_idx" ON "trained_models" USING btree ("job_id") WHERE "trained_models"."job_id" is not null;--> statement-breakpoint
CREATE INDEX "training_images_set_idx" ON "training_images" USING btree ("set_id","created_at");--> statement-breakpoint
CREATE INDEX "training_sets_user_created_idx" ON "training_sets" USING btree ("user_id","created_at" DESC NULLS LAST);