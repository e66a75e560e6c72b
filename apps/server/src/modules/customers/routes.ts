import {
  ApprovalPendingResponse,
  BalanceAdjustRequest,
  BalanceAdjustResponse,
  CustomerCreateRequest,
  CustomerCreatedResponse,
  CustomerDetailResponse,
  CustomerListParams,
  CustomerListQuery,
  CustomerListResponse,
  CustomerUpdateRequest,
  IdParam,
  MessageResponse,
  StaffPickerParams,
  StaffPickerResponse,
} from '@platform/domain';
import type { RoutesPlugin } from '../../lib/http.ts';
import { staffOf } from '../../lib/staff-scope.ts';
import { holdForApproval } from '../approvals/service.ts';
import { approvalSettings } from '../approvals/settings.ts';
import { adjustBalance } from './balance.ts';
import { attachCustomerLive } from './live.ts';
import { listCustomers } from './list.ts';
import { createCustomer, deleteCustomer, getCustomerDetail, staffOfRole, updateCustomer } from './service.ts';
import { listOrCsv } from '../../lib/csv-export.ts';
import { CUSTOMER_CSV } from '../../lib/csv-columns.ts';

/** Customers (back-office §2) are managed by admins and managers; a manager only reaches the customers assigned to them. */
const adminManager = { access: [1, 2] } as const;

export const customersRoutes: RoutesPlugin = async (app) => {
  const { ctx } = app;
  const tags = ['admin customers'];

  const detach = attachCustomerLive(ctx);
  app.addHook('onClose', async () => {
    detach();
  });

  app.get(
    '/admin/customers/api/:type',
    {
      config: adminManager,
      schema: {
        tags,
        params: CustomerListParams,
        querystring: CustomerListQuery,
        response: { 200: CustomerListResponse },
      },
    },
    async (req, reply) =>
      listOrCsv(
        reply,
        req.query,
        (q) => listCustomers(ctx, staffOf(req), req.params.type, q),
        { name: `customers-${req.params.type}`, columns: CUSTOMER_CSV },
        { walk: true },
      ),
  );

  app.post(
    '/admin/customers',
    { config: adminManager, schema: { tags, body: CustomerCreateRequest, response: { 201: CustomerCreatedResponse } } },
    async (req, reply) => {
      const id = await createCustomer(ctx, staffOf(req), req.body);
      return reply.status(201).send({ message: 'Customer added successfully', id });
    },
  );

  app.put(
    '/admin/customers/:id',
    {
      config: adminManager,
      schema: {
        tags,
        params: IdParam,
        body: CustomerUpdateRequest,
        response: { 200: MessageResponse, 202: ApprovalPendingResponse },
      },
    },
    async (req, reply) => {
      const actor = staffOf(req);
      // Only admins assign plans; with the plan switch of four-eyes on, the rest is saved and the plan waits (202).
      const planId = req.body.pricingTableId;
      const gated = actor.roleId === 1 && planId !== undefined && (await approvalSettings(ctx.db)).planChange;
      await updateCustomer(ctx, actor, req.params.id, gated ? { ...req.body, pricingTableId: undefined } : req.body);
      const held =
        gated && planId !== undefined
          ? await holdForApproval(ctx, actor, { kind: 'plan_change', userId: req.params.id, planId })
          : null;
      if (held)
        return reply.status(202).send({
          ...held,
          message: `Customer updated; the new pricing plan is ${held.message.charAt(0).toLowerCase()}${held.message.slice(1)}`,
        });
      return { message: 'Customer updated successfully' };
    },
  );

  app.delete(
    '/admin/customers/:id',
    { config: adminManager, schema: { tags, params: IdParam, response: { 200: MessageResponse } } },
    async (req) => {
      await deleteCustomer(ctx, staffOf(req), req.params.id);
      return { message: 'Customers deleted successfully' };
    },
  );

  // Every staff member's Profile item opens the edit screen on their own id; retention agents read customers masked.
  app.get(
    '/admin/share/users/:id',
    {
      config: { access: [1, 2, 4, 5, 6] },
      schema: { tags, params: IdParam, response: { 200: CustomerDetailResponse } },
    },
    async (req) => getCustomerDetail(ctx, staffOf(req), req.params.id),
  );

  app.get(
    '/admin/share/users/role/:roleId',
    { config: adminManager, schema: { tags, params: StaffPickerParams, response: { 200: StaffPickerResponse } } },
    async (req) => ({ data: await staffOfRole(ctx.db, req.params.roleId) }),
  );

  app.put(
    '/admin/balance/:id',
    {
      config: adminManager,
      schema: {
        tags,
        params: IdParam,
        body: BalanceAdjustRequest,
        response: { 200: BalanceAdjustResponse, 202: ApprovalPendingResponse },
      },
    },
    async (req, reply) => {
      const held = await holdForApproval(ctx, staffOf(req), {
        kind: 'balance_adjustment',
        balanceId: req.params.id,
        input: req.body,
      });
      if (held) return reply.status(202).send(held);
      return {
        message: 'Balance updated successfully',
        balance: await adjustBalance(ctx, staffOf(req), req.params.id, req.body),
      };
    },
  );
};
