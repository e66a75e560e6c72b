import {
  CallLogResponse,
  IdParam,
  LeadStatusRequest,
  LeadStatusResponse,
  TaskCreateRequest,
  TaskListQuery,
  TaskListResponse,
  TaskResponse,
  type RoleId,
} from '@platform/domain';
import { z } from 'zod';
import type { RoutesPlugin } from '../../lib/http.ts';
import { staffOf } from '../../lib/staff-scope.ts';
import { receiveCallEnded } from './call-ended.ts';
import { leadCalls } from './call-log.ts';
import { setLeadStatus } from './outcome.ts';
import { completeTask, createTask, listTasks } from './tasks.ts';
import { stopVoisoSandbox } from './telephony.ts';

/**
 * The sales floor beyond the spec's lead screens (docs/decisions.md, "Sales floor"): call outcomes, call-backs and
 * tasks, and the call log. Whoever works leads (1, 2, 5, 6); the lead scope and the task scope decide which.
 */
const tags = ['crm'];
const WORKERS: RoleId[] = [1, 2, 5, 6];
const CallEndedParam = z.object({ token: z.string().regex(/^[0-9a-f]{1,64}$/, 'Not a call-ended address') });

export const salesFloorRoutes: RoutesPlugin = async (app) => {
  // The sandbox telephony (telephony.ts) goes with the app.
  app.addHook('onClose', async () => stopVoisoSandbox(app.ctx));

  app.put(
    '/admin/leads/:id/status',
    {
      config: { access: WORKERS },
      schema: { tags, params: IdParam, body: LeadStatusRequest, response: { 200: LeadStatusResponse } },
    },
    async (req) => {
      const done = await setLeadStatus(app.ctx, staffOf(req), req.params.id, req.body.status);
      return { message: 'Lead status updated successfully', lead_status: done.leadStatus, call_id: done.callId };
    },
  );

  // Voiso's report of a call that ended (call-ended.ts): from Voiso's servers, with the token in the address.
  app.post(
    '/crm/voiso/call-ended/:token',
    {
      config: { access: 'public', sessionless: true, rateLimit: { max: 600, timeWindow: '1 minute' } },
      bodyLimit: 16 * 1024,
      schema: { tags, params: CallEndedParam },
    },
    async (req) => ({ received: true, ...(await receiveCallEnded(app.ctx, req.params.token, req.body)) }),
  );

  app.get(
    '/admin/leads/:id/calls',
    { config: { access: WORKERS }, schema: { tags, params: IdParam, response: { 200: CallLogResponse } } },
    async (req) => ({ data: await leadCalls(app.ctx, staffOf(req), req.params.id) }),
  );

  app.get(
    '/admin/crm/tasks',
    { config: { access: WORKERS }, schema: { tags, querystring: TaskListQuery, response: { 200: TaskListResponse } } },
    async (req) => listTasks(app.ctx.db, staffOf(req), req.query),
  );

  app.post(
    '/admin/crm/tasks',
    { config: { access: WORKERS }, schema: { tags, body: TaskCreateRequest, response: { 201: TaskResponse } } },
    async (req, reply) =>
      reply
        .status(201)
        .send({ message: 'Task scheduled successfully', task: await createTask(app.ctx, staffOf(req), req.body) }),
  );

  app.post(
    '/admin/crm/tasks/:id/done',
    { config: { access: WORKERS }, schema: { tags, params: IdParam, response: { 200: TaskResponse } } },
    async (req) => ({ message: 'Task marked done', task: await completeTask(app.ctx, staffOf(req), req.params.id) }),
  );
};
