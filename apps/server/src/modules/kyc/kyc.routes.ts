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
import { currentUser } from '../../platform/http/auth.ts';
import { registerEndpoints } from '../../platform/http/endpoint.ts';
import { readMultipartUploads } from '../../platform/uploads/multipart-reader.ts';
import type { OperatorRole } from '../admin/admin.service.ts';
import type { KycService } from './kyc.service.ts';

/** What the KYC routes need. */
export interface KycRoutesOptions {
  kyc: KycService;
  /** The admin module's operator check (`AdminService.authorizeOperator`). */
  authorizeOperator: (
    authorizationHeader: string | undefined,
    roles: readonly OperatorRole[],
  ) => Promise<{ email: string }>;
}

/** Who may review identity verification ('admin' may too). */
const REVIEWERS: readonly OperatorRole[] = ['compliance'];
/** Who may read submissions without deciding. */
const READERS: readonly OperatorRole[] = ['compliance', 'viewer'];

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
 * HTTP routes of identity verification (spec §7 `user/info`, `user/commit`; issue 15 documents and
 * reviewing), mounted under /api. Documents come in as a streamed multipart body (limits enforced
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
    // The reviewers' read of any document: operator bearer token, no session, no CSRF (a GET).
    const opsRead = opsKycEndpoints.readDocument;
    app.route<{ Params: ParamsOf<typeof opsRead> }>({
      method: opsRead.method,
      url: opsRead.path,
      schema: {
        tags: [opsRead.tag],
        summary: opsRead.summary,
        description: 'Business codes: 101 LOGIN_EXPIRED, 102 FORBIDDEN, 104 NOT_FOUND.',
        params: opsRead.params,
      },
      handler: async (request, reply) => {
        await options.authorizeOperator(request.headers.authorization, READERS);
        return sendDocument(reply, await kyc.readDocument(null, request.params.id));
      },
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

    // Changes of terms: scheduled by compliance (or admin), read by viewers too.
    registerEndpoints(app, opsTermsEndpoints, {
      scheduleTerms: [
        async (request) => {
          const operator = await options.authorizeOperator(request.headers.authorization, REVIEWERS);
          return kyc.terms.schedule(operator.email, request.body);
        },
        { csrf: false },
      ],
      listTerms: [
        async (request) => {
          await options.authorizeOperator(request.headers.authorization, READERS);
          return kyc.terms.list(request.query);
        },
        { csrf: false },
      ],
    });

    registerEndpoints(app, opsKycStepEndpoints, {
      approveStep: [
        async (request) => {
          const operator = await options.authorizeOperator(request.headers.authorization, REVIEWERS);
          return kyc.decideStep(operator.email, request.params.userId, request.params.step, 'approve', null);
        },
        { csrf: false },
      ],
      rejectStep: [
        async (request) => {
          const operator = await options.authorizeOperator(request.headers.authorization, REVIEWERS);
          return kyc.decideStep(
            operator.email,
            request.params.userId,
            request.params.step,
            'reject',
            request.body.reason,
          );
        },
        { csrf: false },
      ],
    });

    const { readDocument: _opsReadDocument, ...opsJsonEndpoints } = opsKycEndpoints;
    registerEndpoints(app, opsJsonEndpoints, {
      list: [
        async (request) => {
          await options.authorizeOperator(request.headers.authorization, READERS);
          return kyc.listForReview(request.query);
        },
        { csrf: false },
      ],
      show: [
        async (request) => {
          await options.authorizeOperator(request.headers.authorization, READERS);
          return kyc.showForReview(request.params.userId);
        },
        { csrf: false },
      ],
      approve: [
        async (request) => {
          const operator = await options.authorizeOperator(request.headers.authorization, REVIEWERS);
          return kyc.approve(operator.email, request.params.userId);
        },
        { csrf: false },
      ],
      reject: [
        async (request) => {
          const operator = await options.authorizeOperator(request.headers.authorization, REVIEWERS);
          return kyc.reject(operator.email, request.params.userId, request.body.reason);
        },
        { csrf: false },
      ],
    });
  };
}
