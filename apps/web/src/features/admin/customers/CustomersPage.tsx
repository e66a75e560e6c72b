import { useCallback, useMemo, useState } from 'react';
import { Anchor, Group, Modal, Stack, Text } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ROLE_NAMES, isRoleId, type CustomerListItem } from '@platform/domain';
import { ApiError, apiDelete } from '../../../api/client.ts';
import { toastError, toastSuccess } from '../../../ui/toast.ts';
import {
  AddNewButton,
  DataTable,
  EditDeleteActions,
  OnlineName,
  StatusChip,
  useRefreshList,
  type DataTableColumn,
} from '../../../ui/data-table/index.ts';
import { CustomerForm } from './CustomerForm.tsx';
import { customer360Columns, Customer360Figures } from './customer360.tsx';
import { Customer360Filters, NO_CUSTOMER_FILTERS, type Customer360View } from './Customer360Filters.tsx';
import { usePresence } from './usePresence.ts';

export const customersUrl = (type: string) => `/admin/customers/api/${type}`;

/** Customers (/admin/customers/all, /admin/customers/inactive): back-office spec §2, titled "{type} Customers" by the shell. */
export function CustomersPage({ type }: { type: 'all' | 'inactive' }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const url = customersUrl(type);
  const [adding, setAdding] = useState(false);
  const refreshThis = useRefreshList(url);
  const online = usePresence();
  // Sorted and filtered by the customers' figures on the server (Customer 360); the spec's columns sort the page.
  const [view, setView] = useState<Customer360View>(NO_CUSTOMER_FILTERS);

  const remove = useCallback(
    async (c: CustomerListItem) => {
      try {
        await apiDelete(`/admin/customers/${c.id}`);
      } catch (err) {
        // A refusal the staff member can act on (open positions) is explained; anything else is the spec's generic text.
        toastError(err instanceof ApiError && err.status === 409 ? err.message : t('Something went wrong'));
        return;
      }
      toastSuccess(t('Customers deleted successfully'));
      await refreshThis();
    },
    [t, refreshThis],
  );

  const columns = useMemo<DataTableColumn<CustomerListItem>[]>(
    () => [
      { key: 'id', label: t('ID'), sortable: true, width: 70 },
      {
        key: 'full_name',
        label: t('FULL NAME'),
        sortable: true,
        render: (c) => (
          <Anchor component={Link} to={`/admin/customers/edit/${c.id}`} size="sm" c="inherit">
            <OnlineName
              name={c.full_name}
              online={online(c.id, c.online)}
              onlineLabel={t('Online')}
              offlineLabel={t('Offline')}
            />
          </Anchor>
        ),
      },
      { key: 'email', label: t('EMAIL'), sortable: true, truncate: 140 },
      { key: 'phone', label: t('PHONE'), sortable: true },
      // A calendar date (YYYY-MM-DD) shown as the spec's DD/MM/YYYY, without a time. Secondary columns (birth date,
      // role) start hidden so status and actions fit at 1440 px; the column chooser shows them.
      {
        key: 'birth_date',
        label: t('BIRTH DATE'),
        sortable: true,
        hidden: true,
        render: (c) => c.birth_date?.split('-').reverse().join('/'),
      },
      // Country and email verified make room for the customer's figures at 1440 px (the chooser shows them).
      { key: 'country', label: t('COUNTRY'), sortable: true, truncate: 140, hidden: true },
      {
        key: 'role_id',
        label: t('ROLE'),
        sortable: true,
        hidden: true,
        render: (c) => (isRoleId(c.role_id) ? t(ROLE_NAMES[c.role_id]) : null),
      },
      ...customer360Columns<CustomerListItem>(t, (c) => c, { hidden: ['last_login'] }),
      {
        key: 'is_email_verified',
        label: t('EMAIL VERIFIED'),
        sortable: true,
        hidden: true,
        render: (c) => (c.is_email_verified ? t('Yes') : t('No')),
      },
      {
        key: 'is_active',
        label: t('STATUS'),
        sortable: true,
        render: (c) =>
          c.is_active ? (
            <StatusChip label={t('Active')} color="green" />
          ) : (
            <StatusChip label={t('Inactive')} color="red" />
          ),
      },
      {
        key: 'actions',
        label: t('ACTIONS'),
        render: (c) => (
          <EditDeleteActions
            onEdit={() => navigate(`/admin/customers/edit/${c.id}`)}
            deleteMessage={t('Are you sure to delete this user?')}
            onDelete={() => remove(c)}
          />
        ),
      },
    ],
    [t, remove, navigate, online],
  );

  // A phone shows a card a customer: name and presence, email, the figures, status and actions.
  const card = (c: CustomerListItem) => (
    <Stack gap={4}>
      <Group justify="space-between" wrap="nowrap">
        <Anchor component={Link} to={`/admin/customers/edit/${c.id}`} size="sm" fw={600} c="inherit">
          <OnlineName
            name={c.full_name}
            online={online(c.id, c.online)}
            onlineLabel={t('Online')}
            offlineLabel={t('Offline')}
          />
        </Anchor>
        {c.is_active ? (
          <StatusChip label={t('Active')} color="green" />
        ) : (
          <StatusChip label={t('Inactive')} color="red" />
        )}
      </Group>
      <Text size="xs" c="dimmed">
        #{c.id} · {c.email}
      </Text>
      <Customer360Figures c={c} t={t} />
      <Group justify="flex-end">
        <EditDeleteActions
          onEdit={() => navigate(`/admin/customers/edit/${c.id}`)}
          deleteMessage={t('Are you sure to delete this user?')}
          onDelete={() => remove(c)}
        />
      </Group>
    </Stack>
  );

  return (
    <>
      <DataTable<CustomerListItem>
        url={url}
        columns={columns}
        filters={view.filters}
        serverSort={view.sort}
        onServerSortChange={(sort) => setView((v) => ({ ...v, sort }))}
        card={card}
        toolbar={
          <>
            <Customer360Filters value={view} onChange={setView} />
            <AddNewButton onClick={() => setAdding(true)} />
          </>
        }
        exportable
      />
      <Modal opened={adding} onClose={() => setAdding(false)} size="lg" title={t('Add New Customer')}>
        {adding && (
          <CustomerForm
            onCancel={() => setAdding(false)}
            onSaved={() => {
              setAdding(false);
              void refreshThis();
            }}
          />
        )}
      </Modal>
    </>
  );
}
