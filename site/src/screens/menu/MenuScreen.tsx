import { Alert, Button, Card, Flex, Heading, Loader, Text } from '@aws-amplify/ui-react';
import { useCallback } from 'react';
import { useApp } from '../../app/AppContext';
import { VersionsPanel } from '../../components/history/HistoryPanel';
import { LoadError } from '../../components/LoadError';
import { useConfirm } from '../../components/useConfirm';
import { useLeaveGuard } from '../../components/useLeaveGuard';
import { can, type Action } from '../../lib/collections';
import { findItem, outline, type MenuItem } from '../../lib/menuTree';
import { MSG } from '../../lib/messages';
import { MenuItemPanel } from './MenuItemPanel';
import { MenuList } from './MenuList';
import { useMenu } from './useMenu';
import { usePages } from './usePages';
import './menu.css';

const MENU_CATEGORY = { category: 'MENU_ITEM' };

/** MenuScreen is 'Organize your menu' (SPEC §2): a nested drag-and-drop list and an edit panel. */
export function MenuScreen() {
  const menu = useMenu();
  const { user } = useApp();
  const may = (action: Action) => can(user, MENU_CATEGORY, action);
  const { pages, titleOf } = usePages();
  const [confirm, confirmDialog] = useConfirm();
  const askLeave = useCallback(() => confirm(MSG.unsavedChanges), [confirm]);
  useLeaveGuard(menu.dirty, askLeave);
  const selected = findItem(menu.tree, menu.selected);

  const onDelete = async (item: MenuItem) => {
    if (await confirm(MSG.confirmDelete)) menu.remove(item.id);
  };
  // Adding and deleting change the draft; only 'Save All Changes' (an edit) writes them.
  const mayAdd = may('CREATE') && may('EDIT');
  const mayDelete = may('DELETE') && may('EDIT');

  return (
    <Card variation="outlined" className="panel menu-screen">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" marginBottom="medium">
        <Heading level={2} className="screen-heading">
          Organize your menu
        </Heading>
        <Flex gap="small">
          {mayAdd && (
            <Button onClick={menu.add}>
              + Add Menu Item
            </Button>
          )}
          {may('EDIT') && (
            <Button variation="primary" onClick={menu.save} isLoading={menu.saving} loadingText="Please wait..." isDisabled={!menu.dirty}>
              Save All Changes
            </Button>
          )}
        </Flex>
      </Flex>
      {menu.dirty && (
        <Alert variation="info" marginBottom="small" role="status">
          You have unsaved changes.
        </Alert>
      )}
      {menu.loading ? (
        <Loader />
      ) : menu.failed ? (
        <LoadError error={menu.error} onRetry={menu.reload} />
      ) : (
        <div className="menu-layout">
          <div>
            {menu.tree.length === 0 ? (
              <Text className="menu-empty">No menu items yet. Add one with '+ Add Menu Item'.</Text>
            ) : (
              <MenuList
                tree={menu.tree}
                selected={menu.selected}
                pageTitle={titleOf}
                onMove={menu.apply}
                onSelect={menu.setSelected}
                onDelete={mayDelete ? onDelete : undefined}
              />
            )}
            <Text fontSize="small" className="menu-hint">
              Drag a row by its handle: up or down to reorder, right to nest it under the row above, left to move it out.
            </Text>
          </div>
          {selected ? (
            <MenuItemPanel key={selected.id} item={selected} pages={pages} onChange={(patch) => menu.edit(selected.id, patch)} />
          ) : (
            <Text className="menu-panel menu-panel--empty">Select an item to edit it.</Text>
          )}
        </div>
      )}
      {menu.saved && (
        <VersionsPanel
          resource="menu-items"
          currentVersion={menu.version}
          describe={(v) => (v.action === 'restore' && v.restoredFrom ? `restored version ${v.restoredFrom}` : 'saved')}
          compare={(kept) => {
            const [was, now] = [outline(kept as MenuItem[]), outline(menu.saved ?? [])];
            return [{ name: 'menu', label: 'Items', kept: was, current: now, changed: was !== now }];
          }}
          canRestore={may('EDIT')}
          onRestored={() => void menu.reload()}
        />
      )}
      {confirmDialog}
    </Card>
  );
}
