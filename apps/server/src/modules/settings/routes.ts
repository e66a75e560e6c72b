import { BrandingResponse, COUNTRIES } from '@platform/domain';
import { z } from 'zod';
import type { RoutesPlugin } from '../../lib/http.ts';
import { getBranding } from './service.ts';

export const settingsRoutes: RoutesPlugin = async (app) => {
  app.get(
    '/settings/branding',
    { config: { access: 'public' }, schema: { tags: ['settings'], response: { 200: BrandingResponse } } },
    async () => getBranding(app.ctx.db),
  );

  app.get(
    '/countries',
    {
      config: { access: 'public' },
      schema: { tags: ['settings'], response: { 200: z.array(z.object({ name: z.object({ common: z.string() }) })) } },
    },
    async (_req, reply) => {
      reply.header('cache-control', 'public, max-age=86400');
      return COUNTRIES.map((common) => ({ name: { common } }));
    },
  );
};
