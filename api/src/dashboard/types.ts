import { builder } from '../graphql/builder.ts';
import { viewerOnlyUserField } from '../graphql/shapes.ts';
import { type DashboardStats, dashboardStats } from './rules.ts';

export const DashboardStatsObject = builder.objectRef<DashboardStats>('DashboardStats').implement({
  description: "The dashboard's figures for the signed-in user. Storage use is on User.storage.",
  fields: (t) => ({
    totalFiles: t.exposeInt('totalFiles', { description: 'Files you own.' }),
    totalPhotos: t.exposeInt('totalPhotos', { description: 'Image files you own.' }),
    totalGalleries: t.exposeInt('totalGalleries', { description: 'Galleries you own.' }),
    activeGalleries: t.exposeInt('activeGalleries', { description: "Galleries you own with status 'active'." }),
    sharedGalleries: t.exposeInt('sharedGalleries', {
      description: "Other people's galleries shared with a project you belong to.",
    }),
    pendingTasks: t.exposeInt('pendingTasks', { description: 'Pending tasks you created or were assigned.' }),
    overdueTasks: t.exposeInt('overdueTasks', { description: 'Of the pending ones, those due before now.' }),
    completedTasks: t.exposeInt('completedTasks'),
    unreadNotifications: t.exposeInt('unreadNotifications'),
  }),
});

viewerOnlyUserField(
  'dashboardStats',
  DashboardStatsObject,
  'Only for the signed-in user themselves; null on anyone else.',
  dashboardStats,
);
