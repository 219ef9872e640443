import { type Params, redirect } from 'react-router-dom';
import type { OperationType, PreloadableConcreteRequest, Variables } from 'relay-runtime';
import type { FirstImages } from '../../../api/src/http/web-page.ts';
import { appPath, replacementForRawId } from '../lib/globalId.ts';
import { gridUrl, gridUrl2x } from '../lib/pictures.ts';
import type { ScreenName } from '../routing/screenModules.ts';
import DashboardScreenQuery from '../screens/dashboard/__generated__/DashboardScreenQuery$parameters';
import { fileSortArgument, fileSortFrom, serverSearchTerm } from '../screens/files/options.ts';
import FilesScreenQuery from '../screens/files/__generated__/FilesScreenQuery$parameters';
import { gallerySortFrom } from '../screens/galleries/options.ts';
import { feedbackVariables } from '../screens/galleries/feedbackFilter.ts';
import { FIRST_ROW } from '../screens/galleries/photos.ts';
import GalleriesScreenQuery from '../screens/galleries/__generated__/GalleriesScreenQuery$parameters';
import GalleryScreenQuery from '../screens/galleries/__generated__/GalleryScreenQuery$parameters';
import ProjectsScreenQuery from '../screens/projects/__generated__/ProjectsScreenQuery$parameters';
import SettingsScreenQuery from '../screens/settings/__generated__/SettingsScreenQuery$parameters';
import SecurityScreenQuery from '../screens/settings/security/__generated__/SecurityScreenQuery$parameters';
import AccountScreenQuery from '../screens/settings/account/__generated__/AccountScreenQuery$parameters';
import AdminScreenQuery from '../screens/admin/__generated__/AdminScreenQuery$parameters';
import { taskSortFrom } from '../screens/tasks/options.ts';
import TasksScreenQuery from '../screens/tasks/__generated__/TasksScreenQuery$parameters';
import NotificationBellSlotQuery from '../shell/__generated__/NotificationBellSlotQuery$parameters';
import ShellThemeQuery from '../shell/__generated__/ShellThemeQuery$parameters';
import StorageUsageSlotQuery from '../shell/__generated__/StorageUsageSlotQuery$parameters';

// Each screen's query as the address asks for it: only the persisted ids (`@preloadable`) and
// the variables, with the route table, so the request leaves with the navigation, before Relay's
// runtime or the screen's code (which carries the full query) has arrived.

type ScreenQuery = {
  query: PreloadableConcreteRequest<OperationType>;
  /** The query's variables from the address; throws a redirect for an address that has moved. */
  variables(params: Params, url: URL): Variables;
  /** Where the pictures the screen shows first are in its answer (the page asks for them itself). */
  firstImages?: FirstImages;
};

const coverImages = (list: string): FirstImages => ({
  list,
  url: 'node.coverImageUrl',
  suffix: gridUrl(''),
  // As the card's <img srcset> (GalleryCardView): the same cover for the same screen.
  dense: { when: 'node.coverImage2xUrl', suffix: gridUrl2x('') },
  count: FIRST_ROW,
});

const SCREEN_QUERIES = {
  dashboard: { query: DashboardScreenQuery, variables: () => ({}), firstImages: coverImages('galleries.edges') },
  galleries: {
    query: GalleriesScreenQuery,
    firstImages: coverImages('galleries.edges'),
    variables: (_, url) => ({
      search: url.searchParams.get('search') || null,
      sort: gallerySortFrom(url.searchParams.get('sort')),
    }),
  },
  gallery: {
    query: GalleryScreenQuery,
    firstImages: {
      list: 'gallery.items.edges',
      url: 'node.url',
      suffix: gridUrl(''),
      unless: 'node.file.metadata.processing',
      // As the grid's <img srcset> (gridImage): the same thumbnail for the same screen.
      dense: { when: 'node.file.metadata.thumbnails.grid2x', suffix: gridUrl2x('') },
      count: FIRST_ROW,
    },
    variables: ({ id = '' }, url) => {
      // An old link with the raw uuid: the address becomes the global id, as every link now is.
      const replacement = replacementForRawId('Gallery', id);
      if (replacement) throw redirect(appPath.gallery(replacement));
      return { id, ...feedbackVariables(url.searchParams.get('feedback')) };
    },
  },
  files: {
    query: FilesScreenQuery,
    variables: (_, url) => {
      const folderId = url.searchParams.get('folder');
      const replacement = folderId && replacementForRawId('Folder', folderId);
      if (replacement) {
        url.searchParams.set('folder', replacement);
        throw redirect(`${url.pathname}?${url.searchParams}`);
      }
      const search = serverSearchTerm(url.searchParams.get('search'));
      return {
        folderId,
        currentFolderId: folderId ?? '',
        inFolder: folderId !== null,
        sort: fileSortArgument(fileSortFrom(url.searchParams.get('sort'))),
        search: search ?? '',
        searching: search !== null,
      };
    },
  },
  tasks: { query: TasksScreenQuery, variables: (_, url) => ({ sort: taskSortFrom(url.searchParams.get('sort')) }) },
  projects: { query: ProjectsScreenQuery, variables: () => ({}) },
  settings: { query: SettingsScreenQuery, variables: () => ({}) },
  security: { query: SecurityScreenQuery, variables: () => ({}) },
  account: { query: AccountScreenQuery, variables: () => ({}) },
  admin: { query: AdminScreenQuery, variables: () => ({}) },
} satisfies Record<ScreenName, ScreenQuery>;

/** The screen's query and its variables at this address (a redirect thrown for a moved one). */
export function screenQuery(name: ScreenName, params: Params, url: URL) {
  const { query, variables, firstImages } = SCREEN_QUERIES[name] as ScreenQuery;
  return { query, variables: variables(params, url), firstImages };
}

/**
 * The shell's own data, each part read where it shows and failing alone (a bell that cannot load
 * leaves the rest working): the dark mode setting, the storage card, the notification bell.
 */
export const SHELL_QUERIES = {
  theme: ShellThemeQuery,
  storage: StorageUsageSlotQuery,
  bell: NotificationBellSlotQuery,
};
