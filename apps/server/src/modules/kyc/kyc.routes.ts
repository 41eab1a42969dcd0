import fastifyMultipart from '@fastify/multipart';
import type { ParamsOf } from '@meridian/contracts/endpoint';
import {
  investorEndpoints,
  kycEndpoints,
  opsKycEndpoints,
  opsKycStepEndpoints,
  opsTermsEndpoints,
  qualifyEndpoints,
  residenceEndpoints,
} from '@meridian/contracts/kyc';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { currentOperator, currentUser } from '../../platform/http/auth.ts';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import { readMultipartUploads } from '../../platform/uploads/multipart-reader.ts';
import type { KycService } from './kyc.service.ts';

/** What the KYC routes need. */
export interface KycRoutesOptions {
  kyc: KycService;
}

/** Answer a document's bytes: its own type, never cached, never sniffed. */
function sendDocument(reply: FastifyReply, document: { bytes: Buffer; mimeType: string; fileName: string }) {
  return reply
    .header('content-type', document.mimeType)
    .header('cache-control', 'private, no-store')
    .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(document.fileName)}`)
    .header('x-content-type-options', 'nosniff')
    .send(document.bytes);
}

/**
 * HTTP routes of identity verification (`user/info`, `user/commit`, documents and
 * reviewing; docs/kyc.md), mounted under /api. Documents come in as a streamed multipart body (limits enforced
 * while reading, platform/uploads) and go out only to their owner or a reviewer, never by a static
 * path. The operator routes (`/ops/kyc/...`) take an operator's bearer token, no CSRF header.
 */
export function kycRoutes(options: KycRoutesOptions) {
  const { kyc } = options;
  return async function register(app: FastifyInstance): Promise<void> {
    // Multipart is parsed only in this context (the document upload); limits are set per request by the reader.
    await app.register(fastifyMultipart);
    const { readDocument: _readDocument, ...jsonEndpoints } = kycEndpoints;
    registerEndpoints(app, jsonEndpoints, {
      info: async (request) => kyc.state(currentUser(request).userId),
      saveDraft: async (request) => kyc.saveDraft(currentUser(request).userId, request.body),
      commit: async (request) => kyc.commit(currentUser(request).userId),
      uploadDocuments: [
        async (request) => {
          const userId = currentUser(request).userId;
          const submission = await readMultipartUploads(request);
          return kyc.addDocuments(userId, submission.files);
        },
        { csrf: 'multipart' },
      ],
    });
    // The document bytes are the answer itself (not an envelope): the route is registered from the
    // descriptor by hand, with the same permission and parameter schema.
    const { readDocument } = kycEndpoints;
    app.route<{ Params: ParamsOf<typeof readDocument> }>({
      method: readDocument.method,
      url: readDocument.path,
      config: { auth: readDocument.auth },
      schema: {
        tags: [readDocument.tag],
        summary: readDocument.summary,
        description: 'Business codes: 104 NOT_FOUND, 101 LOGIN_EXPIRED.',
        params: readDocument.params,
      },
      handler: async (request, reply) =>
        sendDocument(reply, await kyc.readDocument(currentUser(request).userId, request.params.id)),
    });
    // The reviewers' read of any document (the back office's document viewer): its descriptor's roles.
    const opsRead = opsKycEndpoints.readDocument;
    app.route<{ Params: ParamsOf<typeof opsRead> }>({
      method: opsRead.method,
      url: opsRead.path,
      config: { auth: opsRead.auth, roles: opsRead.roles, operation: 'readKycDocument' },
      schema: {
        tags: [opsRead.tag],
        summary: opsRead.summary,
        description: 'Business codes: 101 LOGIN_EXPIRED, 102 FORBIDDEN, 104 NOT_FOUND.',
        params: opsRead.params,
      },
      handler: async (request, reply) => sendDocument(reply, await kyc.readDocument(null, request.params.id)),
    });

    registerEndpoints(app, investorEndpoints, {
      investor: async (request) => kyc.investorState(currentUser(request).userId),
      saveInvestor: async (request) => kyc.saveInvestorDraft(currentUser(request).userId, request.body),
      commitInvestor: async (request) => kyc.commitInvestor(currentUser(request).userId),
      aml: async (request) => kyc.amlState(currentUser(request).userId),
      answerAml: async (request) => kyc.answerAml(currentUser(request).userId, request.body),
      tax: async (request) => kyc.taxState(currentUser(request).userId),
      fileTax: async (request) => kyc.fileTax(currentUser(request).userId, request.body),
    });

    registerEndpoints(app, qualifyEndpoints, {
      qualification: async (request) => kyc.qualifyState(currentUser(request).userId),
      qualify: async (request) => kyc.applyQualified(currentUser(request).userId, request.body),
    });

    registerEndpoints(app, residenceEndpoints, {
      residence: async (request) => kyc.residenceState(currentUser(request).userId),
      reportResidence: async (request) => kyc.reportResidence(currentUser(request).userId, request.body),
    });

    // Changes of terms: scheduled by compliance (or admin), read by support too.
    registerEndpoints(app, opsTermsEndpoints, {
      scheduleTerms: async (request) => kyc.terms.schedule(currentOperator(request).email, request.body),
      listTerms: async (request) => kyc.terms.list(request.query),
    });

    registerEndpoints(app, opsKycStepEndpoints, {
      approveStep: async (request) =>
        kyc.decideStep(currentOperator(request).email, request.params.userId, request.params.step, 'approve', null),
      rejectStep: async (request) =>
        kyc.decideStep(
          currentOperator(request).email,
          request.params.userId,
          request.params.step,
          'reject',
          request.body.reason,
        ),
    });

    const { readDocument: _opsReadDocument, ...opsJsonEndpoints } = opsKycEndpoints;
    registerEndpoints(app, opsJsonEndpoints, {
      list: async (request) => kyc.listForReview(request.query),
      show: async (request) => kyc.showForReview(request.params.userId),
      approve: async (request) => kyc.approve(currentOperator(request).email, request.params.userId),
      reject: async (request) => kyc.reject(currentOperator(request).email, request.params.userId, request.body.reason),
    });
  };
}
