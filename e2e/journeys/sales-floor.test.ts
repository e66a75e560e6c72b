import { describe, expect, it } from 'vitest';
import { ApiSession } from '../support/api.ts';
import { snap } from '../support/browser.ts';
import { dataTable, expectToast, signInAs, useJourney } from '../support/pages.ts';

/**
 * The sales floor in the embedded demo, on its sandbox telephony (no Voiso account): the sales agent calls a lead,
 * records the outcome with the one click the row offers after the call, schedules a call-back a few seconds ahead,
 * and the reminder's toast comes at its time.
 */
describe('Sales floor', () => {
  const j = useJourney();

  it('a sales agent calls a lead, records its outcome, schedules a call-back and is reminded at its time', async () => {
    const tag = `Floor${Date.now().toString(36)}`;
    const admin = new ApiSession(j.url);
    await admin.signIn('admin@demo.test');
    const lead = await admin.call<{ id: number }>('POST', '/admin/leads', {
      firstName: `${tag}Lead`,
      lastName: 'Prospect',
      email: `${tag}@example.test`.toLowerCase(),
      phone: '+44 7700 900888',
    });
    expect(lead.status).toBe(201);
    const agents = await admin.call<{ data: Array<{ id: number; email: string }> }>('GET', '/admin/share/users/role/5');
    const agentId = agents.json.data.find((a) => a.email === 'agent@demo.test')!.id;
    expect((await admin.call('PUT', '/admin/leads/bulk', { ids: [lead.json.id], data: { agentId } })).status).toBe(200);

    const page = j.page;
    await signInAs(page, 'agent@demo.test');
    await page.goto('/admin/crm/sales/all');
    // The sandbox contact center knows the agent: the chip says they are available.
    await expect
      .poll(() => page.getByTestId('call-agent-status').textContent(), { timeout: 10_000 })
      .toContain('Available');
    await dataTable.search(page).fill(tag);
    const row = dataTable.row(page, `${tag}Lead`);
    await row.waitFor();
    await expect.poll(() => dataTable.rows(page).count(), { timeout: 10_000 }).toBe(1);

    // Call: the sandbox takes it as Voiso would, and the row asks for the outcome at once.
    await row.getByRole('button', { name: 'Call', exact: true }).click();
    await expectToast(page, 'Call started successfully');
    await expect
      .poll(() => page.getByTestId('call-agent-status').textContent(), { timeout: 10_000 })
      .toContain('Outbound');
    await page.getByRole('menuitem', { name: 'Interested', exact: true }).click();
    await expectToast(page, 'Lead status updated successfully');
    await expect.poll(() => row.textContent(), { timeout: 10_000 }).toContain('Interested');
    await snap(page, 'sales-floor-outcome');

    // A call-back a few seconds ahead, in the browser's own time zone.
    await row.getByRole('button', { name: 'Schedule call-back' }).click();
    const dialog = page.getByRole('dialog', { name: `Schedule for ${tag}Lead Prospect` });
    await dialog.waitFor();
    const due = await page.evaluate(() => {
      const d = new Date(Date.now() + 8000);
      const p = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
    });
    await dialog.getByLabel('When').fill(due);
    await dialog.getByLabel('Note').fill('Send the account opening link');
    const scheduledAt = Date.now();
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await expectToast(page, 'Task scheduled successfully');
    await row.getByTestId('next-task').waitFor();

    // The reminder: a notification on the agent's own channel, shown as a toast, at its time (not before).
    const reminder = page
      .locator('.mantine-Notification-root')
      .filter({ hasText: `Call-back due: ${tag}Lead Prospect` })
      .first();
    await reminder.waitFor({ timeout: 30_000 });
    expect(Date.now() - scheduledAt).toBeGreaterThan(5000);
    await expect.poll(() => reminder.textContent(), { timeout: 10_000 }).toContain('Send the account opening link');
    await snap(page, 'sales-floor-reminder');

    // The call log on the lead: who called, through the sandbox, and the outcome recorded on it.
    const calls = await page.evaluate(
      async (id) => (await fetch(`/api/admin/leads/${id}/calls`, { credentials: 'include' })).json(),
      lead.json.id,
    );
    expect(calls.data[0]).toMatchObject({ provider: 'sandbox', status: 'started', outcome: 'Interested' });

    // My Tasks lists it as due today; marking it done keeps it under Done.
    await page.goto('/admin/tasks');
    const task = dataTable.row(page, `${tag}Lead Prospect`);
    await task.waitFor();
    await task.getByRole('button', { name: 'Mark done' }).click();
    await expectToast(page, 'Task marked done');
    await page.getByRole('tab', { name: 'Done', exact: true }).click();
    await dataTable.row(page, `${tag}Lead Prospect`).waitFor();
    await snap(page, 'sales-floor-my-tasks');
  });
});
