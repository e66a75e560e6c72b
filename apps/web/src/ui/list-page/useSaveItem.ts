import { useTranslation } from 'react-i18next';
import type { UseFormReturnType } from '@mantine/form';
import { GENERIC_ERROR } from '@platform/domain';
import { apiPost, apiPut, errorMessage } from '../../api/client.ts';
import type { RowKey } from '../data-table/index.ts';
import { applyServerErrors } from '../form.ts';
import { toastError, toastSuccess } from '../toast.ts';

type SaveBody = Parameters<typeof apiPost>[1];

export interface SaveItemOptions<V> {
  /** POST {url} adds; PUT {url}/{id} edits. */
  url: string;
  /** The edited row's id; absent for add-new. */
  id?: RowKey;
  /** The request body from the form's values (the values themselves when absent). */
  body?: (values: V) => SaveBody;
  /** Success toast, already translated ("User added successfully" / "User updated successfully"). */
  savedMessage: string;
  onSaved: () => void;
}

/**
 * The submit handler of a list page's add/edit form: sends the add or the edit, toasts the outcome, and on a
 * failure puts the server's field errors under the inputs and toasts its message (or the generic text).
 */
export function useSaveItem<V>(
  form: UseFormReturnType<V>,
  { url, id, body, savedMessage, onSaved }: SaveItemOptions<V>,
) {
  const { t } = useTranslation();
  return async (values: V) => {
    try {
      const payload = body ? body(values) : (values as SaveBody);
      if (id !== undefined) await apiPut(`${url}/${id}`, payload);
      else await apiPost(url, payload);
    } catch (err) {
      applyServerErrors(form, err);
      toastError(errorMessage(err, t(GENERIC_ERROR)));
      return;
    }
    toastSuccess(savedMessage);
    onSaved();
  };
}
