import { afterAll, describe, expect, it } from 'vitest';
import { FakeVoiso } from '../../apps/server/test/fakes/voiso.ts';
import { ApiSession } from '../support/api.ts';
import { snap } from '../support/browser.ts';
import { dataTable, expectToast, signInAs, useJourney } from '../support/pages.ts';

// A local Voiso contact center the product reaches through VOISO_BASE_URL, as it would reach Voiso's cluster.
const KEY = 'journey-voiso-key';
const voiso = await FakeVoiso.start('cc-journey01', KEY, [
  { email: 'agent@demo.test', ext: '1001', status: 'available' },
]);
afterAll(() => voiso.close());

describe('Click-to-call', () => {
  const j = useJourney({ VOISO_BASE_URL: voiso.baseUrl });

  it('an admin sets up Voiso; the sales agent calls one of their leads from the list', async () => {
    const tag = `Call${Date.now().toString(36)}`;
    const admin = new ApiSession(j.url);
    await admin.signIn('admin@demo.test');
    expect(
      (await admin.call('PUT', '/admin/apis/voiso', { key: 'voiso', value1: 'cc-journey01', value2: KEY })).status,
    ).toBe(200);
    const lead = await admin.call<{ id: number }>('POST', '/admin/leads', {
      firstName: `${tag}Lead`,
      email: `${tag}@example.test`.toLowerCase(),
      phone: '+44 7700 900777',
    });
    expect(lead.status).toBe(201);
    const agents = await admin.call<{ data: Array<{ id: number; email: string }> }>('GET', '/admin/share/users/role/5');
    const agentId = agents.json.data.find((a) => a.email === 'agent@demo.test')!.id;
    expect((await admin.call('PUT', '/admin/leads/bulk', { ids: [lead.json.id], data: { agentId } })).status).toBe(200);

    const page = j.page;
    await signInAs(page, 'agent@demo.test');
    await page.goto('/admin/crm/sales/all');
    await dataTable.search(page).fill(tag);
    const row = dataTable.row(page, `${tag}Lead`);
    await row.waitFor();
    await row.getByRole('button', { name: 'Call', exact: true }).click();
    await expectToast(page, 'Call started successfully');
    await snap(page, 'crm-call-started');
    // Voiso was asked to connect the agent (by their sign-in email) with the lead's own number.
    expect(voiso.startCalls).toHaveLength(1);
    expect(voiso.startCalls[0].query).toMatchObject({ agent: 'agent@demo.test', number: '447700900777' });
  });
});
