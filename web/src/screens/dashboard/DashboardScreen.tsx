import { graphql, useLazyLoadQuery } from 'react-relay';
import type { DashboardScreenQuery } from './__generated__/DashboardScreenQuery.graphql';

export default function DashboardScreen() {
  const data = useLazyLoadQuery<DashboardScreenQuery>(
    graphql`
      query DashboardScreenQuery {
        viewer {
          displayName
        }
      }
    `,
    {},
  );
  return (
    <div>
      <h1 className="text-2xl font-bold">Dashboard</h1>
      <p className="mt-1 text-slate-600 dark:text-slate-400">Welcome back, {data.viewer.displayName}</p>
    </div>
  );
}
