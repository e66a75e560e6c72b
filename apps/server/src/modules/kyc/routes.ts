import {
  DeclineRequest,
  IdParam,
  KycStatusResponse,
  KycSubmitRequest,
  MessageResponse,
  PagedQuery,
  AdminKycListResponse,
} from '@platform/domain';
import { authOf, type RoutesPlugin } from '../../lib/http.ts';
import { parseFields, readMultipart } from '../../lib/multipart.ts';
import { staffOf } from '../../lib/staff-scope.ts';
import { kycStatus, listKyc, reviewKyc, submitKyc } from './service.ts';
import { listOrCsv } from '../../lib/csv-export.ts';
import { KYC_CSV } from '../../lib/csv-columns.ts';

const customer = { access: [3] } as const;
const adminOnly = { access: [1] } as const;

/** Identity verification: the client's submission (client-area §2 KYC) and the admins' review (back-office §2). */
export const kycRoutes: RoutesPlugin = async (app) => {
  const ctx = app.ctx;

  app.get('/kyc', { config: customer, schema: { tags: ['kyc'], response: { 200: KycStatusResponse } } }, async (req) =>
    kycStatus(ctx, authOf(req).user.id),
  );

  app.post(
    '/kyc',
    {
      config: customer,
      schema: { tags: ['kyc'], consumes: ['multipart/form-data'], response: { 200: MessageResponse } },
    },
    async (req) => {
      const form = await readMultipart(req, ['front', 'back', 'address']);
      const { type } = parseFields(KycSubmitRequest, form.fields);
      return { message: await submitKyc(ctx, authOf(req).user, type, form.files) };
    },
  );

  app.get(
    '/admin/kyc/api',
    { config: adminOnly, schema: { tags: ['kyc'], querystring: PagedQuery, response: { 200: AdminKycListResponse } } },
    async (req, reply) =>
      listOrCsv(reply, req.query, (q) => listKyc(ctx, q), { name: 'kyc-documents', columns: KYC_CSV }),
  );

  app.post(
    '/admin/kyc/:id/approve',
    { config: adminOnly, schema: { tags: ['kyc'], params: IdParam, response: { 200: MessageResponse } } },
    async (req) => {
      await reviewKyc(ctx, staffOf(req), req.params.id, 'approved');
      return { message: 'Document approved successfully' };
    },
  );

  app.post(
    '/admin/kyc/:id/decline',
    {
      config: adminOnly,
      schema: { tags: ['kyc'], params: IdParam, body: DeclineRequest.nullish(), response: { 200: MessageResponse } },
    },
    async (req) => {
      await reviewKyc(ctx, staffOf(req), req.params.id, 'declined', req.body?.declineReason ?? null);
      return { message: 'KYC declined successfully' };
    },
  );
};
