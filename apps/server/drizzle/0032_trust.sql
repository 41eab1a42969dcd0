CREATE TABLE "trust_inactivity_notices" (
	"trust_id" bigint NOT NULL,
	"days_before" integer NOT NULL,
	"deadline_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trust_inactivity_notices_trust_id_days_before_deadline_at_pk" PRIMARY KEY("trust_id","days_before","deadline_at")
);
--> statement-breakpoint
CREATE TABLE "trust_movements" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"trust_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"amount_minor" numeric(38, 0) NOT NULL,
	"fee_minor" numeric(38, 0) NOT NULL,
	"net_minor" numeric(38, 0) NOT NULL,
	"entry_id" bigint NOT NULL,
	"idempotency_key" text,
	"request_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trust_movements_idempotency_key" UNIQUE("trust_id","idempotency_key"),
	CONSTRAINT "trust_movements_kind_known" CHECK ("trust_movements"."kind" IN ('entrust', 'withdraw', 'release')),
	CONSTRAINT "trust_movements_amounts" CHECK ("trust_movements"."amount_minor" > 0 AND "trust_movements"."fee_minor" >= 0 AND "trust_movements"."net_minor" = "trust_movements"."amount_minor" - "trust_movements"."fee_minor")
);
--> statement-breakpoint
CREATE TABLE "trusts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"term_months" integer,
	"is_revocable" boolean NOT NULL,
	"inactivity_months" integer NOT NULL,
	"beneficiaries" jsonb NOT NULL,
	"state" text DEFAULT 'active' NOT NULL,
	"fees_paid_minor" numeric(38, 0) DEFAULT 0 NOT NULL,
	"claim_at" timestamp with time zone,
	"released_at" timestamp with time zone,
	"released_by" text,
	"release_reference" text,
	"release_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trusts_state_known" CHECK ("trusts"."state" IN ('active', 'claim', 'closed')),
	CONSTRAINT "trusts_inactivity_range" CHECK ("trusts"."inactivity_months" BETWEEN 6 AND 36),
	CONSTRAINT "trusts_term_range" CHECK ("trusts"."term_months" IS NULL OR "trusts"."term_months" BETWEEN 1 AND 1200)
);
--> statement-breakpoint
ALTER TABLE "trust_inactivity_notices" ADD CONSTRAINT "trust_inactivity_notices_trust_id_trusts_id_fk" FOREIGN KEY ("trust_id") REFERENCES "public"."trusts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trust_movements" ADD CONSTRAINT "trust_movements_trust_id_trusts_id_fk" FOREIGN KEY ("trust_id") REFERENCES "public"."trusts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trust_movements_trust_idx" ON "trust_movements" USING btree ("trust_id","id");--> statement-breakpoint
CREATE INDEX "trusts_user_idx" ON "trusts" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "trusts_state_idx" ON "trusts" USING btree ("state","id");