import { Heading, SelectField, SwitchField, TextField } from '@aws-amplify/ui-react';
import type { MenuItem, MenuItemType } from '../../lib/menuTree';

export interface PageOption {
  id: string;
  title: string;
}

interface Props {
  item: MenuItem;
  pages: PageOption[];
  onChange: (patch: Partial<Omit<MenuItem, 'id' | 'children'>>) => void;
}

/** MenuItemPanel edits the selected item: Label, Type, Page or URL, Status (SPEC §2). */
export function MenuItemPanel({ item, pages, onChange }: Props) {
  const setType = (type: MenuItemType) => onChange({ type, url: type === 'PAGE' ? (pages[0]?.id ?? '') : '#' });
  return (
    <section className="menu-panel" aria-label="Edit menu item">
      <Heading level={4} marginBottom="small">
        Edit menu item
      </Heading>
      <TextField label="Label" value={item.label} onChange={(e) => onChange({ label: e.target.value })} />
      <SelectField label="Type" value={item.type} onChange={(e) => setType(e.target.value as MenuItemType)}>
        <option value="CUSTOM_URL">Custom URL</option>
        <option value="PAGE">Page</option>
      </SelectField>
      {item.type === 'PAGE' ? (
        <SelectField label="Page" value={item.url} onChange={(e) => onChange({ url: e.target.value })}>
          <option value="">Select Page</option>
          {item.url && !pages.some((p) => p.id === item.url) && <option value={item.url}>{item.url}</option>}
          {pages.map((p) => (
            <option key={p.id} value={p.id}>
              {p.title}
            </option>
          ))}
        </SelectField>
      ) : (
        <TextField
          label="URL"
          inputMode="url"
          autoCapitalize="none"
          spellCheck={false}
          value={item.url}
          descriptiveText="#, a path such as /about, or https://…"
          onChange={(e) => onChange({ url: e.target.value })}
        />
      )}
      <SwitchField
        label={item.status ? 'Enable' : 'Disabled'}
        isChecked={item.status}
        onChange={(e) => onChange({ status: e.target.checked })}
        labelPosition="end"
      />
    </section>
  );
}
