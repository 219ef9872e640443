import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import { useState } from 'react';
import { graphql } from 'react-relay/hooks';
import { useSearchParams } from 'react-router-dom';
import { useViewer } from '../../auth/auth.tsx';
import { useRouteQuery } from '../../routing/useRouteQuery.ts';
import { PageHeader } from '../../ui/Card.tsx';
import NotFound from '../notfound/NotFound.tsx';
import type { AdminScreenQuery } from './__generated__/AdminScreenQuery.graphql';
import { AuditSection } from './AuditSection.tsx';
import { InstanceSection } from './InstanceSection.tsx';
import { PeopleSection } from './PeopleSection.tsx';

const TABS = [
  { key: 'people', label: 'People' },
  { key: 'audit', label: 'Audit log' },
  { key: 'instance', label: 'Instance' },
] as const;

/**
 * The administrator console: people, the audit log and the instance. Its data comes from the
 * admin REST paths, which answer 404 to anyone else; so does this screen (the app's 404 page),
 * both when the profile says the viewer is no administrator and when the server says so.
 */
export default function AdminScreen() {
  // The route's query (every screen has one, which the page can carry); the console's own data
  // comes from REST, read by each section.
  useRouteQuery<AdminScreenQuery>(graphql`
    query AdminScreenQuery @preloadable {
      viewer {
        id
      }
    }
  `);
  const viewer = useViewer();
  const [params, setParams] = useSearchParams();
  const [hidden, setHidden] = useState(false);
  const selected = Math.max(
    0,
    TABS.findIndex((tab) => tab.key === params.get('tab')),
  );
  if (!viewer.isAdmin || hidden) return <NotFound />;
  const onNotAdmin = () => setHidden(true);
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title="Administration" subtitle="People, the audit log and this instance." />
      <TabGroup
        selectedIndex={selected}
        onChange={(index) => {
          const next = new URLSearchParams(params);
          if (index === 0) next.delete('tab');
          else next.set('tab', TABS[index]?.key ?? 'people');
          setParams(next, { replace: true });
        }}
      >
        <TabList className="mb-6 flex gap-1 overflow-x-auto border-b border-slate-200 dark:border-slate-800">
          {TABS.map((tab) => (
            <Tab
              key={tab.key}
              className="-mb-px shrink-0 border-b-2 border-transparent px-3 py-2 text-sm font-medium text-slate-600 hover:text-slate-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 data-[selected]:border-indigo-600 data-[selected]:text-indigo-700 dark:text-slate-400 dark:hover:text-slate-100 dark:data-[selected]:border-indigo-400 dark:data-[selected]:text-indigo-300"
            >
              {tab.label}
            </Tab>
          ))}
        </TabList>
        <TabPanels>
          <TabPanel unmount>
            <PeopleSection viewerId={viewer.id} onNotAdmin={onNotAdmin} />
          </TabPanel>
          <TabPanel unmount>
            <AuditSection onNotAdmin={onNotAdmin} />
          </TabPanel>
          <TabPanel unmount>
            <InstanceSection onNotAdmin={onNotAdmin} />
          </TabPanel>
        </TabPanels>
      </TabGroup>
    </div>
  );
}
