import { getLoanAdjustRecords } from './get-adjust-records.ts';
import { getLoanLiquidationRecords } from './get-liquidation-records.ts';
import { getLoanOrders } from './get-loan-orders.ts';
import { getLoanRepayRecords } from './get-repay-records.ts';

/** The call of each loan history (route `/my/order/loan/*` → call `loan/*`). */
export const RECORD_FETCHERS = {
  order: getLoanOrders,
  repay: getLoanRepayRecords,
  adjust: getLoanAdjustRecords,
  liquidation: getLoanLiquidationRecords,
};
