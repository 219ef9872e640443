import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { menuItemClass } from '../../ui/ActionsMenu.tsx';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { DownloadIcon, HardDriveIcon, PlusIcon, UploadIcon } from '../../ui/icons.tsx';

const menuItemsClass =
  'z-40 w-56 rounded-md border border-slate-200 bg-white py-1 shadow-lg focus:outline-none dark:border-slate-700 dark:bg-slate-900';

export interface GalleryActionHandlers {
  onAddPhotos(): void;
  onUpload(): void;
  onImport(): void;
  onEdit(): void;
  onReviewLinks(): void;
  onShare(): void;
}

/**
 * A gallery's header actions. On a phone only the two a visit is usually for (Upload, Share) stay
 * as buttons and the rest go into "More", so the photos start on the first screen (as in Immich
 * and Frame.io); from the `sm` width up every action has its button.
 */
export function GalleryActions({
  galleryId,
  canEdit,
  canShare,
  hasPhotos,
  ...on
}: GalleryActionHandlers & { galleryId: string; canEdit: boolean; canShare: boolean; hasPhotos: boolean }) {
  // max-sm: a variant, so it wins over the button's own inline-flex.
  const wide = 'max-sm:hidden';
  const zip = `/api/galleries/${galleryId}/export.zip`;
  const pdf = `/api/galleries/${galleryId}/export.pdf`;
  const more = canEdit || hasPhotos;
  return (
    <>
      {canEdit && (
        <>
          <Button variant="outline" className={wide} onClick={on.onAddPhotos}>
            <PlusIcon className="h-4 w-4" />
            Add Photos
          </Button>
          <Button variant="outline" onClick={on.onUpload}>
            <UploadIcon className="h-4 w-4" />
            Upload Photos
          </Button>
          <Button variant="outline" className={wide} onClick={on.onImport}>
            <HardDriveIcon className="h-4 w-4" />
            Import
          </Button>
          <Button variant="outline" className={wide} onClick={on.onEdit}>
            Edit Gallery
          </Button>
          <Button variant="outline" className={wide} onClick={on.onReviewLinks}>
            Review Links
          </Button>
        </>
      )}
      {hasPhotos && (
        <Menu>
          <MenuButton className={buttonClass('outline', 'md', wide)}>
            <DownloadIcon className="h-4 w-4" />
            Download
          </MenuButton>
          <MenuItems anchor="bottom end" className={menuItemsClass}>
            <MenuItem as="a" href={zip} download className={menuItemClass}>
              All originals (ZIP)
            </MenuItem>
            <MenuItem as="a" href={pdf} download className={menuItemClass}>
              Lookbook with comments (PDF)
            </MenuItem>
          </MenuItems>
        </Menu>
      )}
      {canShare && <Button onClick={on.onShare}>Share Gallery</Button>}
      {more && (
        <Menu>
          <MenuButton className={buttonClass('outline', 'md', 'sm:hidden')} aria-label="More actions">
            More
          </MenuButton>
          <MenuItems anchor="bottom end" className={menuItemsClass}>
            {canEdit && (
              <>
                <MenuItem as="button" type="button" onClick={on.onAddPhotos} className={menuItemClass}>
                  Add Photos
                </MenuItem>
                <MenuItem as="button" type="button" onClick={on.onImport} className={menuItemClass}>
                  Import
                </MenuItem>
                <MenuItem as="button" type="button" onClick={on.onEdit} className={menuItemClass}>
                  Edit Gallery
                </MenuItem>
                <MenuItem as="button" type="button" onClick={on.onReviewLinks} className={menuItemClass}>
                  Review Links
                </MenuItem>
              </>
            )}
            {hasPhotos && (
              <>
                <MenuItem as="a" href={zip} download className={menuItemClass}>
                  Download all originals (ZIP)
                </MenuItem>
                <MenuItem as="a" href={pdf} download className={menuItemClass}>
                  Download lookbook (PDF)
                </MenuItem>
              </>
            )}
          </MenuItems>
        </Menu>
      )}
    </>
  );
}
