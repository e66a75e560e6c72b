import {
  IdParam,
  LanguagesRequest,
  LanguagesResponse,
  MessageResponse,
  TranslationCodeParam,
  TranslationListResponse,
  TranslationRequest,
  TranslationsQuery,
} from '@platform/domain';
import type { RoutesPlugin } from '../../lib/http.ts';
import { staffOf } from '../../lib/staff-scope.ts';
import {
  addTranslation,
  deleteTranslation,
  listLanguages,
  listTranslations,
  saveLanguages,
  updateTranslation,
} from './service.ts';

/** Languages Settings and the translations editor (back-office spec §2, admin only). */
export const languagesRoutes: RoutesPlugin = async (app) => {
  const { ctx } = app;
  const config = { access: [1] } as const;
  const tags = ['languages'];
  app.get('/admin/languages', { config, schema: { tags, response: { 200: LanguagesResponse } } }, async () => ({
    data: await listLanguages(ctx),
  }));
  app.post(
    '/admin/languages',
    { config, schema: { tags, body: LanguagesRequest, response: { 200: MessageResponse } } },
    async (req) => {
      await saveLanguages(ctx, staffOf(req), req.body);
      return { message: 'Languages updated successfully' };
    },
  );
  app.get(
    '/admin/languages/api/:code',
    {
      config,
      schema: {
        tags,
        params: TranslationCodeParam,
        querystring: TranslationsQuery,
        response: { 200: TranslationListResponse },
      },
    },
    async (req) => listTranslations(ctx, req.params.code, req.query),
  );
  app.post(
    '/admin/languages/translations',
    { config, schema: { tags, body: TranslationRequest, response: { 200: MessageResponse } } },
    async (req) => {
      await addTranslation(ctx, staffOf(req), req.body);
      return { message: 'Translation added successfully' };
    },
  );
  app.put(
    '/admin/languages/translations/:id',
    { config, schema: { tags, params: IdParam, body: TranslationRequest, response: { 200: MessageResponse } } },
    async (req) => {
      await updateTranslation(ctx, staffOf(req), req.params.id, req.body);
      return { message: 'Translation updated successfully' };
    },
  );
  app.delete(
    '/admin/languages/translations/:id',
    { config, schema: { tags, params: IdParam, response: { 200: MessageResponse } } },
    async (req) => {
      await deleteTranslation(ctx, staffOf(req), req.params.id);
      return { message: 'Translation deleted successfully' };
    },
  );
};
