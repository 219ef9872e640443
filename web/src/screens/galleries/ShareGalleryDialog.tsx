import { graphql, type PreloadedQuery, useFragment, useMutation, usePreloadedQuery } from 'react-relay/hooks';
import { useQueryWhileOpen, WhenLoaded } from '../../relay/queryWhileOpen.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import type { ShareGalleryDialog_gallery$key } from './__generated__/ShareGalleryDialog_gallery.graphql';
import type { ShareGalleryDialogQuery } from './__generated__/ShareGalleryDialogQuery.graphql';
import type { ShareGalleryDialogRevokeMutation } from './__generated__/ShareGalleryDialogRevokeMutation.graphql';
import type { ShareGalleryDialogShareMutation } from './__generated__/ShareGalleryDialogShareMutation.graphql';
import { ShareGalleryDialogView } from './ShareGalleryDialogView.tsx';
import { useCreateProject } from '../projects/CreateProjectDialog.tsx';

/** Resolves a mutation's typed result: the data, or throws with the error message. */
function settle<T>(
  resolve: (value: T) => void,
  reject: (error: Error) => void,
  pick: (answer: { readonly message?: string }) => T | undefined,
) {
  return {
    onCompleted: (answer: { readonly message?: string } | null | undefined) => {
      if (!answer || answer.message) return reject(new Error(answer?.message ?? 'Failed'));
      const value = pick(answer);
      resolve(value as T);
    },
    onError: reject,
  };
}

const shareQuery = graphql`
  query ShareGalleryDialogQuery($galleryId: ID!) {
    projects(first: 200) @connection(key: "ShareGalleryDialog_projects") {
      __id
      edges {
        node {
          id
          name
          type
          viewerRole
        }
      }
    }
    gallery: node(id: $galleryId) {
      ...ShareGalleryDialog_gallery @alias(as: "sharing")
    }
  }
`;

function ShareGalleryContent({
  reference,
  galleryId,
  galleryName,
  onClose,
}: {
  reference: PreloadedQuery<ShareGalleryDialogQuery>;
  galleryId: string;
  galleryName: string;
  onClose: () => void;
}) {
  const data = usePreloadedQuery<ShareGalleryDialogQuery>(shareQuery, reference);
  const gallery = useFragment<ShareGalleryDialog_gallery$key>(
    graphql`
      fragment ShareGalleryDialog_gallery on Gallery {
        id
        viewerCanShare
        shares {
          id
          permission
          status
          project {
            id
            name
            type
          }
        }
      }
    `,
    data.gallery?.sharing,
  );
  const [commitShare] = useMutation<ShareGalleryDialogShareMutation>(graphql`
    mutation ShareGalleryDialogShareMutation($galleryId: ID!, $projectId: ID, $permission: SharePermission) {
      shareGallery(galleryId: $galleryId, projectId: $projectId, permission: $permission) {
        ... on MutationShareGallerySuccess {
          data {
            id
            # The gallery's shares as they now are, the new one among them.
            gallery {
              ...ShareGalleryDialog_gallery
            }
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  const [createProject] = useCreateProject();
  const [commitRevoke] = useMutation<ShareGalleryDialogRevokeMutation>(graphql`
    mutation ShareGalleryDialogRevokeMutation($id: ID!) {
      revokeGalleryShare(id: $id) {
        ... on MutationRevokeGalleryShareSuccess {
          data @deleteRecord
        }
        ... on Error {
          message
        }
      }
    }
  `);

  // Any project the viewer belongs to can receive the share, owned or joined (the API's rule).
  const projects = data.projects.edges.map((e) => e.node);
  const shares = (gallery?.shares ?? []).filter((s) => s != null);

  return (
    <ShareGalleryDialogView
      open
      onClose={onClose}
      galleryName={galleryName}
      projects={projects}
      canRevoke={gallery?.viewerCanShare === true}
      shares={shares.map((s) => ({
        id: s.id,
        projectName: s.project.name,
        projectType: s.project.type,
        permission: s.permission,
        status: s.status,
      }))}
      callbacks={{
        share: (projectId, permission) =>
          new Promise<void>((resolve, reject) => {
            const { onCompleted, onError } = settle<void>(resolve, reject, () => undefined);
            commitShare({
              variables: { galleryId, projectId, permission },
              onCompleted: (result) => onCompleted(result.shareGallery),
              onError,
            });
          }),
        createProject: (input) => createProject(input, [data.projects.__id]),
        revoke: (shareId) =>
          new Promise<void>((resolve, reject) => {
            const { onCompleted, onError } = settle<void>(resolve, reject, () => undefined);
            commitRevoke({
              variables: { id: shareId },
              onCompleted: (result) => onCompleted(result.revokeGalleryShare),
              onError,
            });
          }),
      }}
    />
  );
}

/** The Share Gallery dialog: your projects, this gallery's shares, share, create a project, revoke. */
export function ShareGalleryDialog({
  gallery,
  onClose,
}: {
  gallery: { id: string; name: string } | null;
  onClose: () => void;
}) {
  const reference = useQueryWhileOpen<ShareGalleryDialogQuery>(shareQuery, gallery && { galleryId: gallery.id });
  if (!gallery) return null;
  return (
    <WhenLoaded
      reference={reference}
      fallback={
        <Dialog open onClose={onClose} title="Share Gallery">
          <Spinner />
        </Dialog>
      }
    >
      {(loaded) => (
        <ShareGalleryContent reference={loaded} galleryId={gallery.id} galleryName={gallery.name} onClose={onClose} />
      )}
    </WhenLoaded>
  );
}
