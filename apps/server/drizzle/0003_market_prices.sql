CREATE TABLE "job_runs" (
	"job_name" text NOT NULL,
	"period_start_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "job_runs_job_name_period_start_at_pk" PRIMARY KEY("job_name","period_start_at")
);
--> statement-breakpoint
CREATE TABLE "price_days" (
	"coin_code" text NOT NULL,
	"bucket_at" timestamp with time zone NOT NULL,
	"open_usd" numeric NOT NULL,
	"high_usd" numeric NOT NULL,
	"low_usd" numeric NOT NULL,
	"close_usd" numeric NOT NULL,
	"sample_count" integer NOT NULL,
	CONSTRAINT "price_days_coin_code_bucket_at_pk" PRIMARY KEY("coin_code","bucket_at")
);
--> statement-breakpoint
CREATE TABLE "price_hours" (
	"coin_code" text NOT NULL,
	"bucket_at" timestamp with time zone NOT NULL,
	"open_usd" numeric NOT NULL,
	"high_usd" numeric NOT NULL,
	"low_usd" numeric NOT NULL,
	"close_usd" numeric NOT NULL,
	"sample_count" integer NOT NULL,
	CONSTRAINT "price_hours_coin_code_bucket_at_pk" PRIMARY KEY("coin_code","bucket_at")
);
--> statement-breakpoint
CREATE TABLE "price_minutes" (
	"coin_code" text NOT NULL,
	"bucket_at" timestamp with time zone NOT NULL,
	"price_usd" numeric NOT NULL,
	"source" text NOT NULL,
	CONSTRAINT "price_minutes_coin_code_bucket_at_pk" PRIMARY KEY("coin_code","bucket_at")
);
