ALTER TABLE "fund_accruals" ADD COLUMN "amount_e8" numeric(38, 0);--> statement-breakpoint
ALTER TABLE "fund_holdings" ADD COLUMN "interest_carry_e8" numeric(38, 0) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "fund_holdings" ADD CONSTRAINT "fund_holdings_interest_carry_check" CHECK (interest_carry_e8 >= 0 AND interest_carry_e8 < 1000000);