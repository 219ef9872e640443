import { graphql, useFragment } from 'react-relay/hooks';
import { Link } from 'react-router-dom';
import { countOf } from '../../lib/format.ts';
import { appPath } from '../../lib/globalId.ts';
import { Badge } from '../../ui/Badge.tsx';
import { GalleryIcon } from '../../ui/icons.tsx';
import { RowList } from '../../ui/RowList.tsx';
import { labelOf } from '../../lib/choices.ts';
import { PERMISSIONS } from './options.ts';
import type { ProjectGalleries_project$key } from './__generated__/ProjectGalleries_project.graphql';

/** The galleries shared with the project, each with what its members may do there. */
export function ProjectGalleries({ project: key }: { project: ProjectGalleries_project$key }) {
  const project = useFragment(
    graphql`
      fragment ProjectGalleries_project on Project {
        name
        viewerRole
        galleryShares(first: 6) {
          totalCount
          edges {
            node {
              id
              permission
              gallery {
                id
                name
                photoCount
              }
            }
          }
        }
      }
    `,
    key,
  );
  const shares = project.galleryShares.edges.map((edge) => edge.node);
  return (
    <section aria-label={`Galleries shared with ${project.name}`}>
      <h3 className="text-sm font-semibold text-slate-900 dark:text-slate-100">
        Shared galleries ({project.galleryShares.totalCount})
      </h3>
      {shares.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          No galleries shared with this project yet.
          {project.viewerRole === 'owner' && ' Share one from its menu on the Galleries screen.'}
        </p>
      ) : (
        <RowList items={shares} rowClassName="flex items-center gap-3 py-2" testId="shared-gallery">
          {(share) => (
            <>
              <GalleryIcon className="h-5 w-5 shrink-0 text-slate-400" />
              <Link
                to={appPath.gallery(share.gallery.id)}
                className="min-w-0 flex-1 truncate text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
              >
                {share.gallery.name}
              </Link>
              <span className="text-xs text-slate-600 dark:text-slate-400">
                {countOf(share.gallery.photoCount, 'photo')}
              </span>
              <Badge tone={share.permission === 'write' ? 'amber' : 'slate'}>
                {labelOf(PERMISSIONS, share.permission)}
              </Badge>
            </>
          )}
        </RowList>
      )}
      {project.galleryShares.totalCount > shares.length && (
        <p className="text-xs text-slate-600 dark:text-slate-400">
          and {project.galleryShares.totalCount - shares.length} more on the Galleries screen
        </p>
      )}
    </section>
  );
}
