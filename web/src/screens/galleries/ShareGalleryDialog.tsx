import { useCallback, useEffect, useState } from 'react';
import { type GalleryJson, galleriesApi, type ProjectJson, type ShareJson } from './api.ts';
import { ShareGalleryDialogView } from './ShareGalleryDialogView.tsx';

/** The Share Gallery dialog wired to the server: projects, current shares, share, create, revoke. */
export function ShareGalleryDialog({
  gallery,
  onClose,
}: {
  gallery: Pick<GalleryJson, 'id' | 'name'> | null;
  onClose: () => void;
}) {
  const [projects, setProjects] = useState<ProjectJson[]>([]);
  const [shares, setShares] = useState<ShareJson[]>([]);
  const galleryId = gallery?.id;

  const loadShares = useCallback(async () => {
    if (galleryId) setShares(await galleriesApi.shares(galleryId));
  }, [galleryId]);

  useEffect(() => {
    if (!galleryId) return;
    setShares([]);
    galleriesApi.projects().then(setProjects, () => setProjects([]));
    loadShares().catch(() => setShares([]));
  }, [galleryId, loadShares]);

  return (
    <ShareGalleryDialogView
      open={gallery !== null}
      onClose={onClose}
      galleryName={gallery?.name ?? ''}
      projects={projects}
      shares={shares.map((s) => ({
        id: s.id,
        projectName: s.project.name,
        projectType: s.project.type,
        permission: s.permission,
        status: s.status,
      }))}
      callbacks={{
        share: async (projectId, permission) => {
          if (!galleryId) return;
          await galleriesApi.share(galleryId, projectId, permission);
          await loadShares();
        },
        createProject: async (input) => {
          const project = await galleriesApi.createProject(input);
          setProjects((list) => [project, ...list]);
          return project;
        },
        revoke: async (shareId) => {
          await galleriesApi.revoke(shareId);
          setShares((list) => list.filter((s) => s.id !== shareId));
        },
      }}
    />
  );
}
