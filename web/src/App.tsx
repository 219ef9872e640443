import { Suspense } from 'react';
import { graphql, useLazyLoadQuery } from 'react-relay';
import type { AppViewerQuery } from './__generated__/AppViewerQuery.graphql';

function Greeting() {
  const data = useLazyLoadQuery<AppViewerQuery>(
    graphql`
      query AppViewerQuery {
        viewer {
          displayName
          email
        }
      }
    `,
    {},
  );
  return (
    <p className="text-lg">
      Signed in as <strong>{data.viewer.displayName}</strong> ({data.viewer.email})
    </p>
  );
}

export function App() {
  return (
    <main className="mx-auto max-w-2xl p-8">
      <h1 className="mb-4 text-2xl font-semibold">Scoutbase</h1>
      <Suspense fallback={<p>Loading</p>}>
        <Greeting />
      </Suspense>
    </main>
  );
}
