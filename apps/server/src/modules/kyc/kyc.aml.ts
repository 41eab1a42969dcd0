import { type AmlAnswersInput, type AmlState, type AmlStatus } from '@meridian/contracts/kyc';
import { desc, eq } from 'drizzle-orm';
import { type AmlRiskLevel, scoreAmlAnswers } from './kyc.aml-scoring.ts';
import { kycAmlAnswers } from './kyc.tables.ts';
import { type KycContext } from './kyc.internal.ts';
import { refreshLevel } from './kyc.levels.ts';

/** `GET investor/aml`: the current answers with their score, and how many versions are kept. */
export async function amlState(ctx: KycContext, userId: string): Promise<AmlState> {
  const rows = await ctx.db
    .select()
    .from(kycAmlAnswers)
    .where(eq(kycAmlAnswers.userId, userId))
    .orderBy(desc(kycAmlAnswers.id));
  const current = rows[0];
  return {
    current: current
      ? {
          version: rows.length,
          answers: current.answers,
          points: current.points,
          level: current.level as AmlRiskLevel,
          status: current.status as AmlStatus,
          createdAt: current.createdAt.toISOString(),
        }
      : null,
    versionCount: rows.length,
  };
}

/** The AML questionnaire: the current answers scored by the rules, kept in versions. Part of the KYC service (`kyc.service.ts`). */
export function createAmlSteps(ctx: KycContext) {
  return {
    amlState: (userId: string) => amlState(ctx, userId),
    /**
     * `POST investor/aml`: score the answers by the rule table (`scoreAmlAnswers`) and keep them as a
     * new version: low and medium risk are accepted, high goes to enhanced review (a reviewer accepts
     * or rejects it). Accepting may complete level 2.
     */
    async answerAml(userId: string, answers: AmlAnswersInput): Promise<AmlState> {
      const score = scoreAmlAnswers(answers);
      await ctx.db.insert(kycAmlAnswers).values({
        userId,
        // Dated by the app's clock: the review queue orders these with the other steps' submittedAt.
        createdAt: ctx.now(),
        answers: answers as unknown as Record<string, unknown>,
        points: score.points,
        level: score.level,
        matchedRules: score.matchedRules,
        status: score.needsEnhancedReview ? 'enhancedReview' : 'accepted',
      });
      await refreshLevel(ctx, userId);
      return amlState(ctx, userId);
    },
  };
}
