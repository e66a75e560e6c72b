import {
  ChangePasswordRequest,
  MessageResponse,
  NameUpdateRequest,
  ProfileUpdateRequest,
  SwitchWalletRequest,
} from '@platform/domain';
import { authOf, type RoutesPlugin } from '../../lib/http.ts';
import { AppError } from '../../lib/errors.ts';
import { requireRecentAuth } from '../security/service.ts';
import { changePassword, switchWallet, updateName, updateProfile } from './service.ts';

export const accountRoutes: RoutesPlugin = async (app) => {
  const { db } = app.ctx;

  app.put(
    '/profile/me',
    {
      config: { access: 'user' },
      schema: { tags: ['account'], body: ProfileUpdateRequest, response: { 200: MessageResponse } },
    },
    async (req) => {
      await updateProfile(db, authOf(req).user.id, req.body);
      return { message: 'Profile updated successfully' };
    },
  );

  // The back office's own Profile: staff change their name here and their password on Security.
  app.put(
    '/profile/name',
    {
      config: { access: 'user' },
      schema: { tags: ['account'], body: NameUpdateRequest, response: { 200: MessageResponse } },
    },
    async (req) => {
      await updateName(db, authOf(req).user.id, req.body);
      return { message: 'Profile updated successfully' };
    },
  );

  app.put(
    '/security/password',
    {
      config: { access: 'user' },
      schema: { tags: ['account'], body: ChangePasswordRequest, response: { 200: MessageResponse } },
    },
    async (req) => {
      const auth = authOf(req);
      // Staff signed in as the customer ("Login as") cannot take over the account.
      if (auth.impersonatorId !== null) throw new AppError('IMPERSONATION_FORBIDDEN');
      // Besides the current password, a session older than 15 minutes confirms first (401 with reauth: true).
      await requireRecentAuth(db, auth.sessionId);
      await changePassword(db, auth.user.id, auth.sessionId, req.body);
      return { message: 'Password changed successfully' };
    },
  );

  app.post(
    '/dashboard/switch-wallet',
    {
      config: { access: 'user' },
      schema: { tags: ['account'], body: SwitchWalletRequest, response: { 200: MessageResponse } },
    },
    async (req) => {
      await switchWallet(db, authOf(req).user.id, req.body.balanceId);
      return { message: 'Wallet switched' };
    },
  );
};
