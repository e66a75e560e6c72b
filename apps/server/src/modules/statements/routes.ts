import { Readable } from 'node:stream';
import { StatementsQuery, StatementsResponse } from '@platform/domain';
import { authOf, type RoutesPlugin } from '../../lib/http.ts';
import { statementCsv, statementHistory, statementWallet } from './service.ts';

export const statementsRoutes: RoutesPlugin = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/statements/history',
    {
      config: { access: 'user' },
      schema: { tags: ['statements'], querystring: StatementsQuery, response: { 200: StatementsResponse } },
    },
    async (req) => statementHistory(db, authOf(req).user.id, req.query),
  );

  app.get(
    '/statements/export',
    {
      config: { access: 'user' },
      schema: { tags: ['statements'], querystring: StatementsQuery.omit({ page: true, limit: true, search: true }) },
    },
    async (req, reply) => {
      const q = { ...req.query, page: 1, limit: 15 };
      const userId = authOf(req).user.id;
      const rows = statementCsv(db, userId, q);
      // Pull the first chunk before sending headers, so a bad date range or wallet still answers with a JSON error.
      const first = await rows.next();
      const wallet = await statementWallet(db, userId, q.walletId);
      const of = wallet ? `${wallet.currency}-${wallet.mode}-${wallet.id}-` : '';
      const name = `statement-${of}${q.dateStart ?? 'all'}-${q.dateEnd ?? 'now'}.csv`;
      reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${name}"`)
        .header('Cache-Control', 'no-store');
      return reply.send(
        Readable.from(
          (async function* () {
            if (!first.done) yield first.value;
            yield* rows;
          })(),
        ),
      );
    },
  );
};
