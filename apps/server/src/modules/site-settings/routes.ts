import { MessageResponse, SiteSettingsDto, SiteSettingsRequest } from '@platform/domain';
import type { RoutesPlugin } from '../../lib/http.ts';
import { parseFields, readMultipart } from '../../lib/multipart.ts';
import { staffOf } from '../../lib/staff-scope.ts';
import { saveSiteSettings, siteSettings } from './service.ts';

/** Site Settings (back-office spec §2, admin only). */
export const siteSettingsRoutes: RoutesPlugin = async (app) => {
  const { ctx } = app;
  const tags = ['site settings'];
  app.get(
    '/admin/settings',
    { config: { access: [1] }, schema: { tags, response: { 200: SiteSettingsDto } } },
    async () => siteSettings(ctx),
  );
  app.post(
    '/admin/settings',
    {
      config: { access: [1] },
      schema: { tags, consumes: ['multipart/form-data'], response: { 200: MessageResponse } },
    },
    async (req) => {
      const form = await readMultipart(req, ['favicon', 'appLogo', 'authBackground']);
      await saveSiteSettings(ctx, staffOf(req), parseFields(SiteSettingsRequest, form.fields), form.files);
      return { message: 'Settings updated successfully' };
    },
  );
};
