// The galleries REST calls of SPEC.md section 7 (plus edit), typed by what the server answers.
import { dataRequest as apiRequest } from '../../lib/http.ts';
import type { Permission } from './options.ts';

export interface GalleryJson {
  id: string;
  name: string;
  description: string | null;
  tags: string[];
  projectName: string | null;
  movieTvShow: string | null;
  location: string | null;
  propertyType: string | null;
  style: string | null;
  status: string;
  isPublic: boolean;
  coverImageId: string | null;
  coverImageUrl: string | null;
  notes: string | null;
  photoCount: number;
  ownerId: string;
  access: 'owner' | 'write' | 'read';
  createdAt: string;
  updatedAt: string;
}

export interface ProjectJson {
  id: string;
  name: string;
  description: string | null;
  type: string;
}

export interface ShareJson {
  id: string;
  projectId: string;
  project: { id: string; name: string; type: string };
  permission: string;
  status: string;
}

export interface GalleryItemJson {
  id: string;
  fileId: string;
  position: number;
  cursor: string;
  file: {
    id: string;
    name: string;
    originalName: string;
    mimeType: string;
    size: number;
    objectPath: string;
    tags: string[];
    metadata: unknown;
    createdAt: string;
  };
}

const gallery = (id: string) => `/api/galleries/${encodeURIComponent(id)}`;

export const galleriesApi = {
  update: (id: string, input: object) => apiRequest<GalleryJson>('PATCH', gallery(id), input),
  shares: (id: string) => apiRequest<ShareJson[]>('GET', `${gallery(id)}/shares`),
  share: (id: string, projectId: string, permission: Permission) =>
    apiRequest<ShareJson>('POST', `${gallery(id)}/share`, { projectId, permission }),
  revoke: (shareId: string) => apiRequest('DELETE', `/api/project-galleries/${encodeURIComponent(shareId)}`),
  projects: () => apiRequest<ProjectJson[]>('GET', '/api/projects'),
  createProject: (input: { name: string; description: string | null; type: string }) =>
    apiRequest<ProjectJson>('POST', '/api/projects', input),
};
