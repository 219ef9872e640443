import { graphql } from 'react-relay/hooks';
import { useRouteQuery } from '../../../routing/useRouteQuery.ts';
import { SubPage } from '../../../ui/SubPage.tsx';
import PasswordSection from './PasswordSection.tsx';
import { SessionsSection } from './SessionsSection.tsx';
import TwoFactorSection from './TwoFactorSection.tsx';
import type { SecurityScreenQuery } from './__generated__/SecurityScreenQuery.graphql';

function SecuritySections() {
  const { data, refresh } = useRouteQuery<SecurityScreenQuery>(
    graphql`
      query SecurityScreenQuery @preloadable {
        viewer {
          ...SessionsSection_viewer
        }
      }
    `,
  );
  return (
    <div className="space-y-6">
      <PasswordSection />
      <TwoFactorSection />
      <SessionsSection viewer={data.viewer} onChanged={() => void refresh()} />
    </div>
  );
}

/** Settings → Security: the password, two-factor sign-in, and where the account is signed in. */
export default function SecurityScreen() {
  return (
    <SubPage
      parent={{ to: '/settings', label: 'Settings' }}
      title="Security"
      subtitle="Your password, two-factor sign-in and signed-in devices"
      loading={['h-40', 'h-56']}
    >
      <SecuritySections />
    </SubPage>
  );
}
