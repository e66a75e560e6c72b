import { IdParam, MailDeliveryResponse, MailDto, MailListResponse, PagedQuery } from '@platform/domain';
import { authOf, type RoutesPlugin } from '../../lib/http.ts';
import { getMail, listMail, mailDelivery } from './service.ts';

/** The outbox holds reset and verification links, so only admins read it. */
const adminOnly = { access: [1] } as const;

export const mailRoutes: RoutesPlugin = async (app) => {
  const { db, mailer } = app.ctx;
  const tags = ['admin mail'];

  app.get(
    '/admin/mail/api',
    { config: adminOnly, schema: { tags, querystring: PagedQuery, response: { 200: MailListResponse } } },
    async (req) => listMail(db, req.query),
  );

  app.get(
    '/admin/mail/delivery',
    { config: adminOnly, schema: { tags, response: { 200: MailDeliveryResponse } } },
    async () => mailDelivery(mailer.smtpEnabled),
  );

  app.get(
    '/admin/mail/:id',
    { config: adminOnly, schema: { tags, params: IdParam, response: { 200: MailDto } } },
    async (req) => getMail(db, req.params.id, { id: authOf(req).user.id, ip: req.ip }),
  );
};
