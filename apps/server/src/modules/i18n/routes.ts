import { z } from 'zod';
import { LanguageCodeParam, MissingTranslationRequest, TranslationsResponse } from '@platform/domain';
import type { RoutesPlugin } from '../../lib/http.ts';
import { getTranslations, reportMissing } from './service.ts';

export const i18nRoutes: RoutesPlugin = async (app) => {
  const { db } = app.ctx;
  const tags = ['i18n'];

  app.get(
    '/translations/:lng',
    {
      config: { access: 'public' },
      schema: { tags, params: LanguageCodeParam, response: { 200: TranslationsResponse } },
    },
    async (req) => getTranslations(db, req.params.lng),
  );

  app.post(
    '/translations/:lng',
    {
      // Public and written to the database, so each address may report a bounded number of keys.
      config: { access: 'public', rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: { tags, params: LanguageCodeParam, body: MissingTranslationRequest, response: { 204: z.null() } },
    },
    async (req, reply) => {
      await reportMissing(db, req.params.lng, req.body.key);
      return reply.status(204).send(null);
    },
  );
};
