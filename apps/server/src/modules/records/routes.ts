import {
  CheckpointVerifyResponse,
  IdParam,
  RecordsCheckpoint,
  RecordsVerifyResponse,
  StoredCheckpointsQuery,
  StoredCheckpointsResponse,
} from '@platform/domain';
import type { RoutesPlugin } from '../../lib/http.ts';
import { listCheckpoints, storedCheckpoint } from './checkpoints.ts';
import { checkpoint, verifyCheckpoint, verifyRecords } from './verify.ts';

const adminOnly = { access: [1] } as const;
const tags = ['records'];

/** The records' hash chains: walk them, export their heads, check an exported checkpoint (admins). */
export const recordsRoutes: RoutesPlugin = async (app) => {
  const { ctx } = app;
  app.get(
    '/admin/records/verify',
    { config: adminOnly, schema: { tags, response: { 200: RecordsVerifyResponse } } },
    async () => verifyRecords(ctx.db),
  );
  app.get(
    '/admin/records/checkpoint',
    { config: adminOnly, schema: { tags, response: { 200: RecordsCheckpoint } } },
    async (_req, reply) => {
      const cp = await checkpoint(ctx.db, ctx.config.RECORDS_SIGNING_KEY);
      reply.header('content-disposition', `attachment; filename="records-checkpoint-${cp.at.slice(0, 10)}.json"`);
      return cp;
    },
  );
  app.post(
    '/admin/records/checkpoint/verify',
    {
      config: adminOnly,
      bodyLimit: 64 * 1024 * 1024,
      schema: { tags, body: RecordsCheckpoint, response: { 200: CheckpointVerifyResponse } },
    },
    async (req) => verifyCheckpoint(ctx.db, ctx.config.RECORDS_SIGNING_KEY, req.body),
  ); // The daily checkpoints the job stored (records.checkpoint), newest first; each downloads as the JSON file.
  app.get(
    '/admin/records/checkpoints',
    {
      config: adminOnly,
      schema: { tags, querystring: StoredCheckpointsQuery, response: { 200: StoredCheckpointsResponse } },
    },
    async (req) => listCheckpoints(ctx.db, req.query),
  );
  app.get(
    '/admin/records/checkpoints/:id',
    { config: adminOnly, schema: { tags, params: IdParam, response: { 200: RecordsCheckpoint } } },
    async (req, reply) => {
      const { day, body } = await storedCheckpoint(ctx.db, req.params.id);
      reply.header('content-disposition', `attachment; filename="records-checkpoint-${day}.json"`);
      return body;
    },
  );
};
