import type { FastifyRequest } from 'fastify';
import {
  IdParam,
  MessageResponse,
  PagedQuery,
  StaffUserCreateRequest,
  StaffUserCreatedResponse,
  StaffUserDto,
  StaffUserListResponse,
  StaffUserUpdateRequest,
} from '@platform/domain';
import { authOf, type RoutesPlugin } from '../../lib/http.ts';
import { createStaff, deleteStaff, getStaff, listStaff, updateStaff, type Actor } from './service.ts';
import { listOrCsv } from '../../lib/csv-export.ts';
import { STAFF_USER_CSV } from '../../lib/csv-columns.ts';

/** Admin & Staffs is an admin-only screen (back-office spec §2 side menu). */
const adminOnly = { access: [1] } as const;

const actorOf = (req: FastifyRequest): Actor => {
  const auth = authOf(req);
  return { id: auth.user.id, sessionId: auth.sessionId, ip: req.ip };
};

export const usersRoutes: RoutesPlugin = async (app) => {
  const { db } = app.ctx;
  const tags = ['admin users'];

  app.get(
    '/admin/users/api',
    { config: adminOnly, schema: { tags, querystring: PagedQuery, response: { 200: StaffUserListResponse } } },
    async (req, reply) =>
      listOrCsv(reply, req.query, (q) => listStaff(db, q), { name: 'staff', columns: STAFF_USER_CSV }),
  );

  app.get(
    '/admin/users/:id',
    { config: adminOnly, schema: { tags, params: IdParam, response: { 200: StaffUserDto } } },
    async (req) => getStaff(db, req.params.id),
  );

  app.post(
    '/admin/users',
    { config: adminOnly, schema: { tags, body: StaffUserCreateRequest, response: { 201: StaffUserCreatedResponse } } },
    async (req, reply) => {
      const user = await createStaff(db, actorOf(req), req.body);
      return reply.status(201).send({ message: 'User added successfully', user });
    },
  );

  app.put(
    '/admin/users/:id',
    {
      config: adminOnly,
      schema: { tags, params: IdParam, body: StaffUserUpdateRequest, response: { 200: MessageResponse } },
    },
    async (req) => {
      await updateStaff(db, actorOf(req), req.params.id, req.body);
      return { message: 'User updated successfully' };
    },
  );

  app.delete(
    '/admin/users/:id',
    { config: adminOnly, schema: { tags, params: IdParam, response: { 200: MessageResponse } } },
    async (req) => {
      await deleteStaff(db, actorOf(req), req.params.id);
      return { message: 'User deleted successfully' };
    },
  );
};
