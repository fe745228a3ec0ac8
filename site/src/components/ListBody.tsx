import { Flex, Loader, SearchField, Text } from '@aws-amplify/ui-react';
import type { ReactNode } from 'react';
import { LoadError } from './LoadError';
import './components.css';

/** 'screen' is a list filling a screen; 'compact' a list inside a dialog. */
type Size = 'screen' | 'compact';

const SIZES = {
  screen: { gap: 'large', loader: 'large', emptyClass: 'empty-state', searchGap: 'medium', searchWidth: '24rem' },
  compact: { gap: 'medium', loader: undefined, emptyClass: undefined, searchGap: 'small', searchWidth: undefined },
} as const;

interface SearchBoxProps {
  value: string;
  onChange: (value: string) => void;
  /** The field's accessible name; the visible text is the placeholder. */
  label?: string;
  placeholder?: string;
  size?: Size;
}

/** SearchBox is a list's 'Search by name' field. */
export function SearchBox({ value, onChange, label = 'Search', placeholder = 'Search by name', size = 'screen' }: SearchBoxProps) {
  const s = SIZES[size];
  return (
    <SearchField
      label={label}
      labelHidden
      placeholder={placeholder}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onClear={() => onChange('')}
      hasSearchButton={false}
      marginBottom={s.searchGap}
      maxWidth={s.searchWidth}
    />
  );
}

interface ListBodyProps {
  loading: boolean;
  empty: boolean;
  /** error is the list's failed load, shown instead of the list (never as 'No Records Found'). */
  error?: unknown;
  onRetry?: () => unknown;
  size?: Size;
  children: ReactNode;
}

/**
 * ListBody shows a failed load's message with Retry, a loader while a list first loads, 'No
 * Records Found' when it is empty, else the list.
 */
export function ListBody({ loading, empty, error, onRetry, size = 'screen', children }: ListBodyProps) {
  const s = SIZES[size];
  if (error) return <LoadError error={error} onRetry={onRetry} />;
  if (loading) {
    return (
      <Flex justifyContent="center" padding={s.gap}>
        <Loader size={s.loader} />
      </Flex>
    );
  }
  if (empty) {
    return (
      <Text className={s.emptyClass} padding={s.gap} textAlign="center">
        No Records Found
      </Text>
    );
  }
  return children;
}
