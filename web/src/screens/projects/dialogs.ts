import type { ComponentProps } from 'react';
import { lazyDialog } from '../../ui/lazyDialog.tsx';
import type { CreateProjectDialog as Create } from './CreateProjectDialog.tsx';
import type { InviteCrewDialog as Invite } from './InviteCrewDialog.tsx';

// The projects screen's dialogs, each loaded when it first opens (ui/lazyDialog.tsx).

export const CreateProjectDialog = lazyDialog(
  () => import('./CreateProjectDialog.tsx').then((m) => m.CreateProjectDialog),
  (props: ComponentProps<typeof Create>) => props.open,
);

export const InviteCrewDialog = lazyDialog(
  () => import('./InviteCrewDialog.tsx').then((m) => m.InviteCrewDialog),
  (props: ComponentProps<typeof Invite>) => props.open,
);
