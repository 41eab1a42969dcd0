ALTER TABLE "loan_liquidations" ADD COLUMN "principal_repaid_minor" numeric(38, 0);--> statement-breakpoint
ALTER TABLE "loan_liquidations" ADD COLUMN "interest_repaid_minor" numeric(38, 0);--> statement-breakpoint
ALTER TABLE "loan_liquidations" ADD COLUMN "principal_loss_minor" numeric(38, 0);--> statement-breakpoint
ALTER TABLE "loan_settings" ADD COLUMN "cure_window_minutes" integer DEFAULT 60 NOT NULL;--> statement-breakpoint
ALTER TABLE "loan_settings" ADD COLUMN "hard_liquidation_ltv_bps" integer DEFAULT 9500 NOT NULL;--> statement-breakpoint
ALTER TABLE "loans" ADD COLUMN "margin_call_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "loan_settings" ADD CONSTRAINT "loan_settings_cure_window" CHECK ("loan_settings"."cure_window_minutes" >= 0 AND "loan_settings"."liquidation_ltv_bps" <= "loan_settings"."hard_liquidation_ltv_bps" AND "loan_settings"."hard_liquidation_ltv_bps" < 10000);