import { useCallback } from 'react';
import { graphql, useMutation } from 'react-relay/hooks';
import { toast } from '../../ui/toast.tsx';
import { isUnauthorizedError } from '../../lib/unauthorized.ts';
import type { useUpdateGalleryMutation } from './__generated__/useUpdateGalleryMutation.graphql';
import type { GalleryInput } from './GalleryFormDialog.tsx';

type Variables = useUpdateGalleryMutation['variables'];

/** Edit Gallery: saves every field of the form; the store updates the card and the gallery screen. */
export function useUpdateGallery() {
  const [commit] = useMutation<useUpdateGalleryMutation>(graphql`
    mutation useUpdateGalleryMutation(
      $id: ID!
      $name: String
      $description: String
      $tags: [String!]
      $projectName: String
      $movieTvShow: String
      $location: String
      $propertyType: PropertyType
      $style: GalleryStyle
      $status: String
      $isPublic: Boolean
    ) {
      updateGallery(
        id: $id
        name: $name
        description: $description
        tags: $tags
        projectName: $projectName
        movieTvShow: $movieTvShow
        location: $location
        propertyType: $propertyType
        style: $style
        status: $status
        isPublic: $isPublic
      ) {
        ... on MutationUpdateGallerySuccess {
          data {
            id
            ...GalleryFormDialog_gallery
            ...GalleryCard_gallery
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  return useCallback(
    (id: string, input: GalleryInput) =>
      new Promise<void>((resolve, reject) => {
        commit({
          variables: {
            id,
            ...input,
            propertyType: input.propertyType as Variables['propertyType'],
            style: input.style as Variables['style'],
          },
          onCompleted: (result) => {
            // A refusal is said by the form (GalleryFormDialogView), by its fields.
            const message = result.updateGallery.message;
            if (message) return reject(new Error(message));
            toast({ title: 'Success', description: 'Gallery updated successfully!' });
            resolve();
          },
          onError: (error) =>
            reject(isUnauthorizedError(error) ? error : new Error('Failed to update gallery. Please try again.')),
        });
      }),
    [commit],
  );
}
