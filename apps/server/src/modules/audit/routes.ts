import { AuditActionsResponse, AuditListResponse, AuditQuery } from '@platform/domain';
import { AUDIT_CSV } from '../../lib/csv-columns.ts';
import { listOrCsv } from '../../lib/csv-export.ts';
import type { RoutesPlugin } from '../../lib/http.ts';
import { auditActions, listAudit } from './service.ts';

/** The audit log (admins only): read and export; nothing in the product changes or deletes a row. */
export const auditRoutes: RoutesPlugin = async (app) => {
  const { db } = app.ctx;
  const tags = ['audit'];
  app.get(
    '/admin/audit/api',
    { config: { access: [1] }, schema: { tags, querystring: AuditQuery, response: { 200: AuditListResponse } } },
    async (req, reply) =>
      listOrCsv(reply, req.query, (q) => listAudit(db, q), { name: 'audit-log', columns: AUDIT_CSV }),
  );
  app.get(
    '/admin/audit/actions',
    { config: { access: [1] }, schema: { tags, response: { 200: AuditActionsResponse } } },
    async () => ({ data: await auditActions(db) }),
  );
};
