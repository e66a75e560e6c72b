import { Fragment, useCallback, useMemo, useState, type ReactNode } from 'react';
import { Modal } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { GENERIC_ERROR } from '@platform/domain';
import { ApiError, apiDelete, errorMessage } from '../../api/client.ts';
import { toastError, toastSuccess } from '../toast.ts';
import { toastIfSentForApproval } from '../../features/admin/approvals/pending.ts';
import {
  AddNewButton,
  DataTable,
  EditDeleteActions,
  listQueryKey,
  type DataTableColumn,
  type RowKey,
} from '../data-table/index.ts';

/** What an add/edit form of a list page is given: the row being edited (absent for add-new) and how to finish. */
export interface ListFormProps<T> {
  item?: T;
  /** Closes the modal and reloads the list (the form has already shown its success toast). */
  onSaved: () => void;
  onCancel: () => void;
}

export interface ListPageOptions<T> {
  /** Server list url under /api, as the DataTable reads it. */
  url: string;
  /** DELETE url of one row. */
  deleteUrl: (row: T) => string;
  /** Toast after a delete (already translated). */
  deletedMessage: string;
  /**
   * Delete refusals the admin can act on (a status leads still have, an instrument with open positions) show the
   * server's words; any other failure shows the generic text (back-office spec §8).
   */
  explainRefusal?: (err: ApiError) => boolean;
  /** A change here shows in other lists too (a status on the leads list, a team in the pickers): reload them all. */
  refreshAllLists?: boolean;
}

/** The server's words for a refusal the caller explains; the generic text for anything else. */
const refusalText = (err: unknown, explain: ((err: ApiError) => boolean) | undefined, generic: string) =>
  err instanceof ApiError && explain?.(err) ? err.message : generic;

/**
 * The actions of an admin list's rows (close a trade, cancel an order): `act` runs one, toasts its success (a text, or
 * one made from the server's answer) or the server's words for a failure, and reloads the list.
 */
export function useListActions(url: string, refreshAllLists = false) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const refresh = useCallback(
    () => client.invalidateQueries({ queryKey: refreshAllLists ? ['list'] : listQueryKey(url) }),
    [client, url, refreshAllLists],
  );
  const act = useCallback(
    async <A,>(work: () => Promise<A>, success: string | ((answer: A) => string)) => {
      let answer: A;
      try {
        answer = await work();
      } catch (err) {
        toastError(errorMessage(err, t(GENERIC_ERROR)));
        return;
      }
      toastSuccess(typeof success === 'string' ? success : success(answer));
      await refresh();
    },
    [refresh, t],
  );
  return { refresh, act };
}

/**
 * The state of an admin list with add, edit and delete: which row the modal edits ('new' for add-new), the delete
 * (with its toasts), the rows' other actions and the reload after a change. `ListPage` draws it; a screen with its own
 * layout can use it alone.
 */
export function useListPage<T>({
  url,
  deleteUrl,
  deletedMessage,
  explainRefusal,
  refreshAllLists,
}: ListPageOptions<T>) {
  const { t } = useTranslation();
  const { refresh, act } = useListActions(url, refreshAllLists);
  const [editing, setEditing] = useState<{ item?: T } | null>(null);
  const close = useCallback(() => setEditing(null), []);

  const remove = useCallback(
    async (row: T) => {
      let res: unknown;
      try {
        res = await apiDelete(deleteUrl(row));
      } catch (err) {
        toastError(refusalText(err, explainRefusal, t(GENERIC_ERROR)));
        return;
      }
      // A delete above a four-eyes threshold (a trade's void) waits for a second person (202).
      if (!toastIfSentForApproval(t, res)) toastSuccess(deletedMessage);
      await refresh();
    },
    [deleteUrl, deletedMessage, explainRefusal, refresh, t],
  );

  return {
    editing,
    openAdd: useCallback(() => setEditing({}), []),
    openEdit: useCallback((item: T) => setEditing({ item }), []),
    close,
    saved: useCallback(() => {
      setEditing(null);
      void refresh(); // the list reloads in the background; the modal closes at once
    }, [refresh]),
    remove,
    act,
    refresh,
  };
}

export interface ListPageProps<T extends { id: RowKey }> extends ListPageOptions<T> {
  /** The page's columns; the ACTIONS column (edit, delete behind the confirmation) is added after them. */
  columns: readonly DataTableColumn<T>[];
  /** Modal titles and the delete question, already translated. */
  addTitle: string;
  editTitle: string;
  deleteMessage: string;
  /** The add/edit form (with anything shown above it), remounted for each row opened. */
  form: (props: ListFormProps<T>) => ReactNode;
  exportable?: boolean;
}

/** An admin list page: the data table with Add New, edit and delete per row, and the add/edit form in a modal. */
export function ListPage<T extends { id: RowKey }>({
  columns,
  addTitle,
  editTitle,
  deleteMessage,
  form,
  exportable,
  ...options
}: ListPageProps<T>) {
  const { t } = useTranslation();
  const list = useListPage(options);
  const { openEdit, remove } = list;

  const withActions = useMemo<DataTableColumn<T>[]>(
    () => [
      ...columns,
      {
        key: 'actions',
        label: t('ACTIONS'),
        render: (row) => (
          <EditDeleteActions onEdit={() => openEdit(row)} deleteMessage={deleteMessage} onDelete={() => remove(row)} />
        ),
      },
    ],
    [columns, t, deleteMessage, openEdit, remove],
  );

  const item = list.editing?.item;
  return (
    <>
      <DataTable<T>
        url={options.url}
        columns={withActions}
        toolbar={<AddNewButton onClick={list.openAdd} />}
        exportable={exportable}
      />
      <Modal opened={list.editing !== null} onClose={list.close} size="lg" title={item ? editTitle : addTitle}>
        {list.editing && (
          <Fragment key={item ? item.id : 'new'}>{form({ item, onSaved: list.saved, onCancel: list.close })}</Fragment>
        )}
      </Modal>
    </>
  );
}
