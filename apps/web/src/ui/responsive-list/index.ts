export {
  CardFigure,
  PHONE_QUERY,
  ResponsiveList,
  type ListColumn,
  type ResponsiveListProps,
} from './ResponsiveList.tsx';
