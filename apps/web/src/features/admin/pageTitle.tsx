import { createContext, useContext, useEffect } from 'react';

/** Lets a screen replace the header title the shell derives from the path (e.g. a customer's name). */
export const PageTitleContext = createContext<(title: string | null) => void>(() => undefined);

/** Shows `title` (already translated) in the admin header while the calling screen is mounted. */
export function useAdminPageTitle(title: string | null): void {
  const setTitle = useContext(PageTitleContext);
  useEffect(() => {
    setTitle(title);
    return () => setTitle(null);
  }, [setTitle, title]);
}
