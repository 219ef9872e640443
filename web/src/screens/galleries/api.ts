// The galleries REST calls of SPEC.md section 7 (plus edit), typed by what the server answers.
import { useCallback, useEffect, useRef, useState } from 'react';
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
  list: (search: string, sort: string) => {
    const params = new URLSearchParams();
    if (search.trim()) params.set('search', search.trim());
    if (sort && sort !== 'recent') params.set('sort', sort);
    const query = params.toString();
    return apiRequest<GalleryJson[]>('GET', `/api/galleries${query ? `?${query}` : ''}`);
  },
  get: (id: string) => apiRequest<GalleryJson>('GET', gallery(id)),
  create: (input: object) => apiRequest<GalleryJson>('POST', '/api/galleries', input),
  update: (id: string, input: object) => apiRequest<GalleryJson>('PATCH', gallery(id), input),
  remove: (id: string) => apiRequest('DELETE', gallery(id)),
  items: (id: string, after: string | null, limit = 200) => {
    const params = new URLSearchParams({ limit: String(limit) });
    if (after) params.set('after', after);
    return apiRequest<GalleryItemJson[]>('GET', `${gallery(id)}/items?${params}`);
  },
  addFiles: (id: string, fileIds: string[]) =>
    apiRequest<GalleryItemJson[]>('POST', `${gallery(id)}/items`, { fileIds }),
  removeFile: (id: string, fileId: string) =>
    apiRequest('DELETE', `${gallery(id)}/items/${encodeURIComponent(fileId)}`),
  shares: (id: string) => apiRequest<ShareJson[]>('GET', `${gallery(id)}/shares`),
  share: (id: string, projectId: string, permission: Permission) =>
    apiRequest<ShareJson>('POST', `${gallery(id)}/share`, { projectId, permission }),
  revoke: (shareId: string) => apiRequest('DELETE', `/api/project-galleries/${encodeURIComponent(shareId)}`),
  projects: () => apiRequest<ProjectJson[]>('GET', '/api/projects'),
  createProject: (input: { name: string; description: string | null; type: string }) =>
    apiRequest<ProjectJson>('POST', '/api/projects', input),
};

/**
 * Loads once per key and on reload(); answers of an older key never overwrite a newer one (a fast
 * typist's searches can come back out of order).
 */
export function useResource<T>(key: string | null, load: () => Promise<T>) {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: key !== null });
  const generation = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  const run = useCallback(async () => {
    const mine = ++generation.current;
    setState((s) => ({ ...s, loading: true }));
    try {
      const data = await loadRef.current();
      if (mine === generation.current) setState({ data, loading: false });
    } catch (error) {
      if (mine === generation.current) setState((s) => ({ ...s, error: error as Error, loading: false }));
    }
  }, []);

  useEffect(() => {
    if (key !== null) void run();
  }, [key, run]);

  return { ...state, reload: run };
}
