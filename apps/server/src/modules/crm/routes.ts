import { z } from 'zod';
import {
  GroupLeadsParams,
  IdParam,
  LeadBulkRequest,
  LeadConvertRequest,
  LeadCreateRequest,
  LeadHistoryResponse,
  LeadListQuery,
  LeadListResponse,
  CallAgentsResponse,
  LeadNoteRequest,
  LeadNoteResponse,
  LeadUpdateRequest,
  MessageResponse,
  NewLeadsParams,
  SalesLeadsParams,
  SalesStatusListQuery,
  SalesStatusListResponse,
  SalesStatusRequest,
  StartCallRequest,
  StartCallResponse,
  LEAD_CSV_EXAMPLE,
  LEAD_CSV_MAX_BYTES,
  LeadCsvUploadResponse,
  LeadImportResponse,
} from '@platform/domain';
import { AppError } from '../../lib/errors.ts';
import { readMultipart } from '../../lib/multipart.ts';
import { listOrCsv } from '../../lib/csv-export.ts';
import { LEAD_CSV } from '../../lib/csv-columns.ts';
import { leadImportOf, queueLeadImport } from './lead-imports.ts';
import type { RoutesPlugin } from '../../lib/http.ts';
import { staffOf } from '../../lib/staff-scope.ts';
import { listCallAgents, startCall } from './calls.ts';
import { listLeads, type LeadList } from './list.ts';
import { addNote, bulkUpdateLeads, convertLead, createLead, deleteLead, leadHistory, updateLead } from './service.ts';
import { createSalesStatus, deleteSalesStatus, listSalesStatuses, updateSalesStatus } from './statuses.ts';
import { salesFloorRoutes } from './sales-floor-routes.ts';

/**
 * CRM (back-office §2 CRM lead screens, CRM configuration; §6). Access per route follows the menu; within a route the
 * lead scope (crm/scope.ts) limits agents and affiliates to their own leads.
 */
const tags = ['crm'];
const CreatedResponse = z.object({ message: z.string(), id: z.number() });

export const crmRoutes: RoutesPlugin = async (app) => {
  const { db } = app.ctx;
  await app.register(salesFloorRoutes);

  /** Each list answers with and without the trailing /{startDate}/{endDate}. */
  const listRoutes = <P extends z.ZodObject>(
    path: string,
    access: readonly number[],
    params: P,
    list: (p: z.output<P>) => LeadList,
  ) => {
    for (const url of [path, `${path}/:startDate/:endDate`])
      app.get(
        url,
        {
          config: { access: [...access] as never },
          schema: { tags, params, querystring: LeadListQuery, response: { 200: LeadListResponse } },
        },
        async (req, reply) => {
          const p = req.params as z.output<P> & { status: string; startDate?: string; endDate?: string };
          const filters = { status: p.status, startDate: p.startDate, endDate: p.endDate };
          return listOrCsv(
            reply,
            req.query,
            (q) => listLeads(app.ctx, staffOf(req), list(p), filters, q),
            { name: `leads-${list(p).kind}`, columns: LEAD_CSV },
            { walk: true },
          );
        },
      );
  };
  listRoutes('/affiliate/leads/api/sales/:status/:type', [1, 2, 5], SalesLeadsParams, (p) => ({
    kind: 'sales',
    type: p.type,
  }));
  listRoutes('/affiliate/leads/api/new/:status/:type', [1, 2, 5, 6], NewLeadsParams, (p) => ({
    kind: 'new',
    type: p.type,
  }));
  listRoutes('/affiliate/leads/api/clients/:status', [1, 2], GroupLeadsParams, () => ({ kind: 'clients' }));
  listRoutes('/affiliate/leads/api/archived/:status', [1, 2], GroupLeadsParams, () => ({ kind: 'archived' }));
  listRoutes('/affiliate/leads/api/retentions/:status', [1, 2, 6], GroupLeadsParams, () => ({ kind: 'retentions' }));

  // Affiliate Leads (admins, managers) and an affiliate's own leads; filters as query parameters.
  app.get(
    '/affiliate/leads/api',
    {
      config: { access: [1, 2, 4] },
      schema: { tags, querystring: LeadListQuery, response: { 200: LeadListResponse } },
    },
    async (req, reply) =>
      listOrCsv(
        reply,
        req.query,
        (q) =>
          listLeads(
            app.ctx,
            staffOf(req),
            { kind: 'affiliate' },
            { status: q.status, startDate: q.startDate, endDate: q.endDate },
            q,
          ),
        {
          name: 'leads-affiliate',
          columns: LEAD_CSV,
        },
        { walk: true },
      ),
  );

  app.post(
    '/admin/leads',
    { config: { access: [1, 2, 4] }, schema: { tags, body: LeadCreateRequest, response: { 201: CreatedResponse } } },
    async (req, reply) =>
      reply
        .status(201)
        .send({ message: 'Leads added successfully', id: await createLead(app.ctx, staffOf(req), req.body) }),
  );

  // CSV upload (Add-new's companion: admins, managers and affiliates for their own leads), its progress and its example
  // file. The upload answers 202 once the file is checked and queued; the import runs as a background job.
  app.post(
    '/admin/leads/csv',
    {
      config: { access: [1, 2, 4] },
      schema: { tags, consumes: ['multipart/form-data'], response: { 202: LeadCsvUploadResponse } },
    },
    async (req, reply) => {
      const form = await readMultipart(req, ['file'], LEAD_CSV_MAX_BYTES);
      const file = form.files.file;
      if (!file)
        throw new AppError('VALIDATION', 'Choose a CSV file to upload.', { file: 'Choose a CSV file to upload.' });
      return reply.status(202).send(await queueLeadImport(app.ctx, staffOf(req), file));
    },
  );
  app.get(
    '/admin/leads/csv/:id',
    { config: { access: [1, 2, 4] }, schema: { tags, params: IdParam, response: { 200: LeadImportResponse } } },
    async (req) => leadImportOf(app.ctx, staffOf(req), req.params.id),
  );
  app.get('/admin/leads/csv/example', { config: { access: [1, 2, 4] }, schema: { tags } }, async (_req, reply) =>
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="leads-example.csv"')
      .send(LEAD_CSV_EXAMPLE),
  );

  app.put(
    '/admin/leads/bulk',
    { config: { access: [1, 2, 5, 6] }, schema: { tags, body: LeadBulkRequest, response: { 200: MessageResponse } } },
    async (req) => {
      const done = await bulkUpdateLeads(app.ctx, staffOf(req), req.body);
      return { message: done === 'moved' ? 'Lead moved successfully' : 'Agents assigned successfully' };
    },
  );

  app.put(
    '/admin/leads/:id',
    {
      config: { access: [1, 2, 5, 6] },
      schema: { tags, params: IdParam, body: LeadUpdateRequest, response: { 200: MessageResponse } },
    },
    async (req) => {
      await updateLead(app.ctx, staffOf(req), req.params.id, req.body);
      return { message: 'Lead edited successfully' };
    },
  );

  for (const url of ['/admin/leads/:id', '/affiliate/leads/:id'])
    app.delete(
      url,
      {
        config: { access: url.startsWith('/admin') ? [1, 2] : [4] },
        schema: { tags, params: IdParam, response: { 200: MessageResponse } },
      },
      async (req) => {
        await deleteLead(app.ctx, staffOf(req), req.params.id);
        return { message: 'Lead deleted successfully' };
      },
    );

  app.get(
    '/admin/leads/:id/history',
    { config: { access: [1, 2, 5, 6] }, schema: { tags, params: IdParam, response: { 200: LeadHistoryResponse } } },
    async (req) => ({ data: await leadHistory(app.ctx, staffOf(req), req.params.id) }),
  );

  app.post(
    '/admin/leads/convertLeadToUser',
    {
      config: { access: [1, 2, 5, 6] },
      schema: {
        tags,
        body: LeadConvertRequest,
        response: { 201: z.object({ message: z.string(), userId: z.number() }) },
      },
    },
    async (req, reply) =>
      reply
        .status(201)
        .send({ message: 'Lead converted successfully', userId: await convertLead(app.ctx, staffOf(req), req.body) }),
  );

  app.post(
    '/admin/crm/note',
    { config: { access: [1, 2, 5, 6] }, schema: { tags, body: LeadNoteRequest, response: { 201: LeadNoteResponse } } },
    async (req, reply) =>
      reply
        .status(201)
        .send({ message: 'Notes created successfully', note: await addNote(app.ctx, staffOf(req), req.body) }),
  );

  // Click-to-call (Voiso): whoever works leads; the lead scope decides which numbers they may dial.
  app.post(
    '/admin/crm/voiso/startCall',
    {
      config: { access: [1, 2, 5, 6] },
      schema: { tags, body: StartCallRequest, response: { 200: StartCallResponse } },
    },
    async (req) => ({
      message: 'Call started successfully',
      call_id: (await startCall(app.ctx, staffOf(req), req.body)).callId,
    }),
  );
  app.get(
    '/admin/crm/voiso/agents',
    { config: { access: [1, 2, 5, 6] }, schema: { tags, response: { 200: CallAgentsResponse } } },
    async (req) => listCallAgents(app.ctx, staffOf(req)),
  );

  // Sales statuses: everyone working leads reads them (status filters); admins and managers change them.
  app.get(
    '/admin/crm-config/sales-statuses/api',
    {
      config: { access: [1, 2, 4, 5, 6] },
      schema: { tags, querystring: SalesStatusListQuery, response: { 200: SalesStatusListResponse } },
    },
    async (req) => listSalesStatuses(db, req.query),
  );
  app.post(
    '/admin/crm-config/sales-statuses',
    { config: { access: [1, 2] }, schema: { tags, body: SalesStatusRequest, response: { 201: MessageResponse } } },
    async (req, reply) => {
      await createSalesStatus(db, staffOf(req), req.body);
      return reply.status(201).send({ message: 'Sales Status added successfully' });
    },
  );
  app.put(
    '/admin/crm-config/sales-statuses/:id',
    {
      config: { access: [1, 2] },
      schema: { tags, params: IdParam, body: SalesStatusRequest, response: { 200: MessageResponse } },
    },
    async (req) => {
      await updateSalesStatus(db, staffOf(req), req.params.id, req.body);
      return { message: 'Sales Status updated successfully' };
    },
  );
  app.delete(
    '/admin/crm-config/sales-statuses/:id',
    { config: { access: [1, 2] }, schema: { tags, params: IdParam, response: { 200: MessageResponse } } },
    async (req) => {
      await deleteSalesStatus(db, staffOf(req), req.params.id);
      return { message: 'Sales Status deleted successfully' };
    },
  );
};
