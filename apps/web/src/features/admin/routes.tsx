import { Route, Routes, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AdminLayout } from './AdminLayout.tsx';
import { MailOutboxPage } from './mail/MailOutboxPage.tsx';
import { screenTitle } from './screens.ts';
import { SectionPlaceholder } from './StatusViews.tsx';
import { StaffUsersPage } from './users/StaffUsersPage.tsx';

/** Placeholder for a menu screen of a later release, titled like the screen it stands for. */
function CurrentSectionPlaceholder() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { title, translate } = screenTitle(pathname);
  return <SectionPlaceholder title={translate ? t(title) : title} />;
}

/**
 * The back office, mounted by the app router at /admin/* and /affiliate/*. Paths inside are
 * relative to whichever of the two matched; the shell itself checks the role against the full path.
 */
export function AdminRoutes() {
  const { pathname } = useLocation();
  const underAffiliate = pathname === '/affiliate' || pathname.startsWith('/affiliate/');
  return (
    <Routes>
      <Route element={<AdminLayout />}>
        {underAffiliate ? (
          <Route path="*" element={<CurrentSectionPlaceholder />} />
        ) : (
          <>
            <Route path="users" element={<StaffUsersPage />} />
            <Route path="mail" element={<MailOutboxPage />} />
            <Route path="customers/edit/:id" element={<CurrentSectionPlaceholder />} />
            <Route path="*" element={<CurrentSectionPlaceholder />} />
          </>
        )}
      </Route>
    </Routes>
  );
}
