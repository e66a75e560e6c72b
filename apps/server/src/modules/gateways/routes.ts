import {
  AdminGatewaysResponse,
  ApprovalPendingResponse,
  ExternalPaymentListResponse,
  ExternalPaymentRequest,
  GatewayNameParam,
  GatewayUpdateRequest,
  IdParam,
  MessageResponse,
  PagedQuery,
} from '@platform/domain';
import type { RoutesPlugin } from '../../lib/http.ts';
import { parseFields, readMultipart } from '../../lib/multipart.ts';
import { staffOf } from '../../lib/staff-scope.ts';
import {
  createExternalPayment,
  deleteExternalPayment,
  listExternalPayments,
  updateExternalPayment,
} from './external.ts';
import { holdForApproval } from '../approvals/service.ts';
import { listGateways, updateGateway } from './service.ts';
import { listOrCsv } from '../../lib/csv-export.ts';
import { EXTERNAL_PAYMENT_CSV } from '../../lib/csv-columns.ts';

const adminOnly = { access: [1] } as const;

/** Automatic and manual gateways and external payment links (back-office §2), admins only. */
export const gatewaysRoutes: RoutesPlugin = async (app) => {
  const ctx = app.ctx;

  app.get(
    '/admin/gateways',
    { config: adminOnly, schema: { tags: ['gateways'], response: { 200: AdminGatewaysResponse } } },
    async () => listGateways(ctx),
  );

  app.put(
    '/admin/gateways/:name',
    {
      config: adminOnly,
      schema: {
        tags: ['gateways'],
        params: GatewayNameParam,
        consumes: ['multipart/form-data'],
        response: { 200: MessageResponse, 202: ApprovalPendingResponse },
      },
    },
    async (req, reply) => {
      const form = await readMultipart(req, ['file']);
      const input = parseFields(GatewayUpdateRequest, form.fields);
      // A new secret waits for a second admin when the switch is on (202); the gateways with files have no secrets.
      const held = form.files.file
        ? null
        : await holdForApproval(ctx, staffOf(req), { kind: 'gateway_secrets', name: req.params.name, input });
      if (held) return reply.status(202).send(held);
      return { message: await updateGateway(ctx, staffOf(req), req.params.name, input, form.files.file) };
    },
  );

  app.get(
    '/admin/externalPayments/api',
    {
      config: adminOnly,
      schema: { tags: ['external payments'], querystring: PagedQuery, response: { 200: ExternalPaymentListResponse } },
    },
    async (req, reply) =>
      listOrCsv(reply, req.query, (q) => listExternalPayments(ctx, q), {
        name: 'external-payments',
        columns: EXTERNAL_PAYMENT_CSV,
      }),
  );

  app.post(
    '/admin/externalPayments',
    {
      config: adminOnly,
      schema: { tags: ['external payments'], consumes: ['multipart/form-data'], response: { 200: MessageResponse } },
    },
    async (req) => {
      const form = await readMultipart(req, ['logo']);
      await createExternalPayment(ctx, staffOf(req), parseFields(ExternalPaymentRequest, form.fields), form.files.logo);
      return { message: 'External payment added successfully' };
    },
  );

  app.put(
    '/admin/externalPayments/:id',
    {
      config: adminOnly,
      schema: {
        tags: ['external payments'],
        params: IdParam,
        consumes: ['multipart/form-data'],
        response: { 200: MessageResponse },
      },
    },
    async (req) => {
      const form = await readMultipart(req, ['logo']);
      await updateExternalPayment(
        ctx,
        staffOf(req),
        req.params.id,
        parseFields(ExternalPaymentRequest, form.fields),
        form.files.logo,
      );
      return { message: 'External payment updated successfully' };
    },
  );

  app.delete(
    '/admin/externalPayments/:id',
    { config: adminOnly, schema: { tags: ['external payments'], params: IdParam, response: { 200: MessageResponse } } },
    async (req) => {
      await deleteExternalPayment(ctx, staffOf(req), req.params.id);
      return { message: 'Payment deleted successfully' };
    },
  );
};
