import { z } from 'zod';

/**
 * What every maker-checker settings change carries, whatever it changes (network fee, pair spread,
 * loan risk levels, card fees and rates, fund rate tiers): its state, who proposed it and when, who
 * decided and when. A change is proposed by one admin and applied or rejected by another
 * (docs/decisions/0015-settings-workflow.md).
 */
export const SETTING_CHANGE_STATUSES = ['proposed', 'applied', 'rejected'] as const;
export type SettingChangeStatus = (typeof SETTING_CHANGE_STATUSES)[number];

/** The fields of a settings change's row common to every kind; spread into each kind's schema. */
export const settingChangeDecisionFields = {
  id: z.number().int(),
  status: z.enum(SETTING_CHANGE_STATUSES),
  proposedBy: z.string(),
  proposedAt: z.string(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
};
