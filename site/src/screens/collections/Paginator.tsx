import { Button, Flex, SelectField, Text, TextField } from '@aws-amplify/ui-react';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { PAGE_SIZES, goToPageLabel, pageItems, parseGoToPage, showingText } from '../../lib/paginator';

interface Props {
  page: number;
  last: number;
  limit: number;
  total: number;
  onPage: (page: number) => void;
  onLimit: (limit: number) => void;
}

/** Paginator: page size, 'Showing x - y of n', up to 10 page buttons with ellipses, and go-to-page. */
export function Paginator({ page, last, limit, total, onPage, onLimit }: Props) {
  const [goTo, setGoTo] = useState('');
  const [error, setError] = useState<string | undefined>();

  const jump = (e: FormEvent) => {
    e.preventDefault();
    const res = parseGoToPage(goTo, last);
    if ('error' in res) {
      setError(res.error);
      toast.error(res.error);
      return;
    }
    setError(undefined);
    setGoTo('');
    onPage(res.page);
  };

  return (
    <Flex className="paginator" justifyContent="space-between" alignItems="center" wrap="wrap" gap="medium">
      <Flex alignItems="center" gap="small">
        <SelectField
          label="Rows per page"
          labelHidden={false}
          size="small"
          value={String(limit)}
          onChange={(e) => onLimit(Number(e.target.value))}
          className="page-size"
        >
          {PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </SelectField>
        <Text className="showing-text" aria-live="polite">
          {showingText(page, limit, total)}
        </Text>
      </Flex>
      <nav aria-label="Pagination">
        <ul className="page-buttons">
          <li>
            <Button size="small" onClick={() => onPage(page - 1)} isDisabled={page <= 1} aria-label="Previous page">
              ‹
            </Button>
          </li>
          {pageItems(page, last).map((item) =>
            typeof item === 'number' ? (
              <li key={item}>
                <Button
                  size="small"
                  variation={item === page ? 'primary' : undefined}
                  aria-current={item === page ? 'page' : undefined}
                  aria-label={`Page ${item}`}
                  onClick={() => onPage(item)}
                >
                  {item}
                </Button>
              </li>
            ) : (
              <li key={item} className="page-ellipsis" aria-hidden="true">
                …
              </li>
            ),
          )}
          <li>
            <Button size="small" onClick={() => onPage(page + 1)} isDisabled={page >= last} aria-label="Next page">
              ›
            </Button>
          </li>
        </ul>
      </nav>
      <form onSubmit={jump} className="go-to-page" noValidate>
        <Flex alignItems="flex-end" gap="xs">
          <TextField
            label={goToPageLabel(last)}
            size="small"
            inputMode="numeric"
            value={goTo}
            onChange={(e) => {
              setGoTo(e.target.value);
              setError(undefined);
            }}
            hasError={Boolean(error)}
            errorMessage={error}
            width="9rem"
          />
          <Button size="small" type="submit">
            Go
          </Button>
        </Flex>
      </form>
    </Flex>
  );
}
