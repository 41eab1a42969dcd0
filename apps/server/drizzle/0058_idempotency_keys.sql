CREATE TABLE "idempotency_keys" (
	"owner_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"state" text NOT NULL,
	"claim_token" text NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	"answer" text,
	"completed_at" timestamp with time zone,
	CONSTRAINT "idempotency_keys_pk" PRIMARY KEY("owner_id","idempotency_key")
);
