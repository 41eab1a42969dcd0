CREATE TABLE "liabilities_leaves" (
	"snapshot_id" bigint NOT NULL,
	"user_id" text NOT NULL,
	"leaf_index" integer NOT NULL,
	"salt" text NOT NULL,
	"balances" jsonb NOT NULL,
	CONSTRAINT "liabilities_leaves_snapshot_id_user_id_pk" PRIMARY KEY("snapshot_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "liabilities_snapshots" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"snapshot_date" date NOT NULL,
	"root_hash" text NOT NULL,
	"assets" jsonb NOT NULL,
	"root_sums" jsonb NOT NULL,
	"ledger_liabilities" jsonb NOT NULL,
	"holdings" jsonb NOT NULL,
	"leaf_count" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "liabilities_snapshots_snapshot_date_unique" UNIQUE("snapshot_date")
);
--> statement-breakpoint
ALTER TABLE "liabilities_leaves" ADD CONSTRAINT "liabilities_leaves_snapshot_id_liabilities_snapshots_id_fk" FOREIGN KEY ("snapshot_id") REFERENCES "public"."liabilities_snapshots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "liabilities_leaves_snapshot_index_idx" ON "liabilities_leaves" USING btree ("snapshot_id","leaf_index");