import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import type { RoutesPlugin } from '../../lib/http.ts';
import { fileBytes, loadFile, mayRead } from './storage.ts';

const FileParam = z.object({ id: z.string().max(64) });

/**
 * GET /files/{id}: an uploaded file, to whoever may see it. Logos and branding images are public (the sign-in page
 * shows them); anything else needs a session that may read it, and is otherwise answered as not found. The bytes are
 * read from the database or the S3 bucket, as the file's record says, only once the reader is allowed.
 */
export const filesRoutes: RoutesPlugin = async (app) => {
  app.get(
    '/files/:id',
    { config: { access: 'public' }, schema: { tags: ['files'], params: FileParam } },
    async (req, reply) => {
      const file = await loadFile(app.ctx.db, req.params.id);
      const isPublic = file?.purpose === 'logo';
      if (!file || (!isPublic && !(req.auth && (await mayRead(app.ctx.db, file, req.auth.user)))))
        throw new AppError('NOT_FOUND', 'File not found.');
      const data = await fileBytes(app.ctx, file);
      return reply
        .header('content-type', file.mime)
        .header('content-disposition', file.mime === 'application/pdf' ? 'inline; filename="document.pdf"' : 'inline')
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(data);
    },
  );
};
