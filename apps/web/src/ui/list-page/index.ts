export {
  ListPage,
  useListActions,
  useListPage,
  type ListFormProps,
  type ListPageOptions,
  type ListPageProps,
} from './ListPage.tsx';
export { useSaveItem, type SaveItemOptions } from './useSaveItem.ts';
export { FormActions } from './FormActions.tsx';
