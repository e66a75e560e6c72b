import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { authOf, type RoutesPlugin } from '../../lib/http.ts';
import { loadFile, mayRead } from './storage.ts';

const FileParam = z.object({ id: z.string().max(64) });

/** GET /files/{id}: an uploaded file, to whoever may see it (another customer gets 404). */
export const filesRoutes: RoutesPlugin = async (app) => {
  app.get('/files/:id', { config: { access: 'user' }, schema: { tags: ['files'], params: FileParam } }, async (req, reply) => {
    const { user } = authOf(req);
    const file = await loadFile(app.ctx.db, req.params.id);
    if (!file || !mayRead(file, user)) throw new AppError('NOT_FOUND', 'File not found.');
    return reply
      .header('content-type', file.mime)
      .header('content-disposition', file.mime === 'application/pdf' ? 'inline; filename="document.pdf"' : 'inline')
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store')
      .send(file.data);
  });
};
