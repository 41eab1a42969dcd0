DROP INDEX "fund_accruals_user_day_idx";--> statement-breakpoint
-- The accrual and the payout update every holding: room on each page lets PostgreSQL update in place (HOT).
ALTER TABLE "fund_holdings" SET (fillfactor = 50);