import { Button, Card, Heading } from '@aws-amplify/ui-react';
import { useState } from 'react';
import { AltTextDialog } from '../../components/media-picker/AltText';
import { useApp } from '../../app/AppContext';
import { ListBody, SearchBox } from '../../components/ListBody';
import { useConfirm } from '../../components/useConfirm';
import { useTakeUrlParam } from '../../components/palette/useUrlParam';
import { MediaGrid } from '../../components/media-picker/MediaGrid';
import { CONFIRM_DELETE, type MediaItem } from '../../components/media-picker/rules';
import { UploadArea } from '../../components/media-picker/UploadArea';
import { Paginator } from '../collections/Paginator';
import { useMediaScreen } from './useMediaScreen';

/** MediaScreen is the Media Library (SPEC §2): an upload area and a searchable file grid. */
export function MediaScreen() {
  const { objectUrlPrefix } = useApp();
  const screen = useMediaScreen(objectUrlPrefix);
  const [confirm, confirmDialog] = useConfirm();
  // The command palette opens a file here with ?search={name}.
  useTakeUrlParam('search', screen.setSearchInput);
  // Issue 37: an image's alt text, asked right after its upload and editable from its card.
  const [describing, setDescribing] = useState<MediaItem | null>(null);

  // A file still shown by pages or records is refused with where (409): asked again with the
  // server's message, "Yes" deletes it anyway.
  const onDelete = async (item: MediaItem) => {
    if (!(await confirm(CONFIRM_DELETE))) return;
    const inUse = await screen.remove(item);
    if (inUse && (await confirm(inUse))) await screen.remove(item, true);
  };

  return (
    <Card variation="outlined" className="panel media-screen">
      <Heading level={2} className="screen-heading" marginBottom="medium">
        Media Library
      </Heading>
      <UploadArea
        accept="file"
        onUploaded={(item) => {
          void screen.onUploaded();
          if (item.mediaType === 'IMAGE') setDescribing(item);
        }}
      />
      <SearchBox value={screen.searchInput} onChange={screen.setSearchInput} />
      <ListBody loading={screen.loading} empty={screen.items.length === 0} error={screen.error} onRetry={screen.reload}>
        <MediaGrid
          items={screen.items}
          objectUrlPrefix={objectUrlPrefix}
          actions={(item) => (
            <>
              {item.mediaType === 'IMAGE' && (
                <Button size="small" onClick={() => setDescribing(item)} aria-label={`Alt text of ${item.name}`}>
                  Alt text
                </Button>
              )}
              <Button size="small" onClick={() => screen.copyLink(item)} aria-label={`Copy link of ${item.name}`}>
                Copy Link
              </Button>
              <Button size="small" variation="link" as="a" href={screen.linkOf(item)} target="_blank" rel="noopener noreferrer" aria-label={`Open ${item.name}`}>
                Open
              </Button>
              <Button
                size="small"
                colorTheme="error"
                onClick={() => onDelete(item)}
                isLoading={screen.deleting === item.id}
                aria-label={`Delete ${item.name}`}
              >
                Delete
              </Button>
            </>
          )}
        />
      </ListBody>
      <Paginator page={screen.page} last={screen.last} limit={screen.limit} total={screen.total} onPage={screen.setPage} onLimit={screen.setLimit} />
      {describing && <AltTextDialog item={describing} objectUrlPrefix={objectUrlPrefix} onClose={() => setDescribing(null)} />}
      {confirmDialog}
    </Card>
  );
}
