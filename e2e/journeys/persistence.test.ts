import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../support/server.ts';
import { ApiSession } from '../support/api.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-persist-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('embedded database', () => {
  it('keeps users and wallets across a restart, and two copies run side by side', async () => {
    const first = await startServer({}, { dataDir, keepData: true });
    const other = await startServer();
    try {
      const s = new ApiSession(first.url);
      await s.signIn('client@demo.test');
      const switched = await s.call('POST', '/dashboard/switch-wallet', { balanceId: 2 });
      expect(switched.status).toBe(200);
      const pw = await s.call('PUT', '/security/password', {
        currentPassword: 'Demo12345!',
        newPassword: 'Persisted123',
      });
      expect(pw.status).toBe(200);
      // The second copy has its own database: the old password still works there.
      await new ApiSession(other.url).signIn('client@demo.test');
    } finally {
      await first.stop();
      await other.stop();
    }
    const again = await startServer({}, { dataDir, keepData: true });
    try {
      const s = new ApiSession(again.url);
      await s.signIn('client@demo.test', 'Persisted123');
      const me = await s.call<{ activeBalance: { id: number; mode: string; balance: string } }>('GET', '/auth/user');
      expect(me.json.activeBalance.id).toBe(2);
      expect(me.json.activeBalance.mode).toBe('real');
      expect(Number(me.json.activeBalance.balance)).toBe(5000);
    } finally {
      await again.stop();
    }
  });
});
