// How long a gallery's text fields may be. The API refuses longer (input.ts); the web form stops
// typing there and counts down near the end (web/src/screens/galleries/GalleryFormDialogView.tsx).
// Nothing here imports anything that runs: the web's compiler reads this file.

export const GALLERY_LIMITS = {
  name: 200,
  description: 5000,
  projectName: 200,
  movieTvShow: 200,
  location: 500,
  /** Each tag. */
  tag: 100,
  tags: 100,
} as const;
