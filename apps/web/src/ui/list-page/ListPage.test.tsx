import { afterEach, describe, expect, it } from 'vitest';
import { useMemo } from 'react';
import { Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockFetch, renderWithProviders, type FetchCall } from '../data-table/testing.tsx';
import type { ApiError } from '../../api/client.ts';
import type { DataTableColumn } from '../data-table/index.ts';
import { FormActions, ListPage, useSaveItem, type ListFormProps } from './index.ts';

afterEach(cleanup);

type Fruit = { id: number; name: string };
const LIST = {
  data: [
    { id: 1, name: 'Apple' },
    { id: 2, name: 'Pear' },
  ],
  meta: { total: 2, per_page: 15, page: 1 },
};

function FruitForm({ item, onSaved, onCancel }: ListFormProps<Fruit>) {
  const form = useForm({
    initialValues: { name: item?.name ?? '' },
    validate: { name: (v) => (v.trim() ? null : 'Name is required') },
  });
  const submit = useSaveItem(form, {
    url: '/fruits',
    id: item?.id,
    savedMessage: item ? 'Fruit updated' : 'Fruit added',
    onSaved,
  });
  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack>
        <TextInput label="Name" {...form.getInputProps('name')} />
        <FormActions editing={Boolean(item)} submitting={form.submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}

const deleteUrl = (f: Fruit) => `/fruits/${f.id}`;
const isConflict = (err: ApiError) => err.status === 409;

function FruitsPage() {
  const columns = useMemo<DataTableColumn<Fruit>[]>(() => [{ key: 'name', label: 'NAME', sortable: true }], []);
  return (
    <ListPage<Fruit>
      url="/fruits/api"
      columns={columns}
      addTitle="Add Fruit"
      editTitle="Edit Fruit"
      deleteMessage="Are you sure to delete this fruit?"
      deleteUrl={deleteUrl}
      deletedMessage="Fruit deleted"
      explainRefusal={isConflict}
      form={(props) => <FruitForm {...props} />}
    />
  );
}

const render = (handler: (c: FetchCall) => unknown = () => LIST) => {
  const mock = mockFetch(handler);
  renderWithProviders(<FruitsPage />);
  return mock;
};
const listReads = (calls: FetchCall[]) => calls.filter((c) => c.method === 'GET' && c.path === '/fruits/api').length;
const row = async (name: string) => (await screen.findByText(name)).closest('tr') as HTMLElement;

describe('ListPage', () => {
  it('lists the rows with the page columns and an ACTIONS column of edit and delete', async () => {
    const { calls } = render();
    const apple = await row('Apple');
    expect(screen.getByRole('columnheader', { name: 'NAME' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'ACTIONS' })).toBeTruthy();
    expect(within(apple).getByRole('button', { name: 'Edit' })).toBeTruthy();
    expect(within(apple).getByRole('button', { name: 'Delete' })).toBeTruthy();
    expect(calls[0].path).toBe('/fruits/api');
  });

  it('adds from a modal: validates, posts, toasts, closes and reloads the list', async () => {
    const { calls } = render((c) => (c.method === 'POST' ? { message: 'ok' } : LIST));
    await row('Apple');
    fireEvent.click(screen.getByRole('button', { name: 'Add New' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Add Fruit')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText('Name is required')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    const reads = listReads(calls);
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Name' }), { target: { value: 'Plum' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Fruit added')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({ path: '/fruits', body: { name: 'Plum' } });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(listReads(calls)).toBeGreaterThan(reads));
  });

  it("edits a row with PUT, keeping the modal open with the server's field error on a refusal", async () => {
    let puts = 0;
    const { calls } = render((c) =>
      c.method === 'PUT'
        ? ++puts === 1
          ? { status: 400, body: { message: 'Name is taken.', errors: { name: 'Name is taken.' } } }
          : { message: 'ok' }
        : LIST,
    );
    fireEvent.click(within(await row('Pear')).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Edit Fruit')).toBeTruthy();
    const name = within(dialog).getByRole('textbox', { name: 'Name' }) as HTMLInputElement;
    expect(name.value).toBe('Pear');
    fireEvent.change(name, { target: { value: 'Apple' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect((await screen.findAllByText('Name is taken.')).length).toBe(2); // under the input and in the toast
    expect(screen.getByRole('dialog')).toBeTruthy();
    fireEvent.change(name, { target: { value: 'Quince' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Fruit updated')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT').map((c) => [c.path, c.body])).toEqual([
      ['/fruits/2', { name: 'Apple' }],
      ['/fruits/2', { name: 'Quince' }],
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('deletes only after the confirmation, toasts and reloads; a refusal shows its reason, other failures the generic text', async () => {
    let status = 200;
    const { calls } = render((c) =>
      c.method === 'DELETE'
        ? status === 200
          ? { message: 'deleted' }
          : { status, body: { message: 'Apples are in a basket.' } }
        : LIST,
    );
    const apple = await row('Apple');
    fireEvent.click(within(apple).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Are you sure to delete this fruit?')).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    const reads = listReads(calls);
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('Fruit deleted')).toBeTruthy();
    expect(calls.find((c) => c.method === 'DELETE')?.path).toBe('/fruits/1');
    await waitFor(() => expect(listReads(calls)).toBeGreaterThan(reads));

    status = 409;
    fireEvent.click(within(apple).getByRole('button', { name: 'Delete' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('Apples are in a basket.')).toBeTruthy();
    status = 500;
    fireEvent.click(within(apple).getByRole('button', { name: 'Delete' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes', hidden: true }));
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
  });
});
