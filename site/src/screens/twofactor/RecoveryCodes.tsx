import { Alert, Button, Flex, Text } from '@aws-amplify/ui-react';
import toast from 'react-hot-toast';
import { useApp } from '../../app/AppContext';
import { recoveryFile } from '../../lib/twoFactor';

/** RecoveryCodes shows freshly made recovery codes once, to copy or download, then goes on. */
export function RecoveryCodes({ codes, onDone, doneLabel }: { codes: string[]; onDone: () => void; doneLabel: string }) {
  const { tenant, user } = useApp();
  const text = recoveryFile(tenant?.name ?? 'your institution', user?.username ?? '', codes, new Date());
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      toast.success('Recovery codes copied.');
    } catch {
      toast.error('Could not copy: select the codes and copy them yourself.');
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'recovery-codes.txt';
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Flex direction="column" gap="small">
      <Alert variation="warning" role="status">
        Save these recovery codes now: you will not see them again. Each one signs you in once if you lose your phone.
      </Alert>
      <ol className="recovery-codes" aria-label="Recovery codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <Flex gap="small" wrap="wrap">
        <Button onClick={copy}>Copy</Button>
        <Button onClick={download}>Download</Button>
        <Button variation="primary" onClick={onDone}>
          {doneLabel}
        </Button>
      </Flex>
      <Text fontSize="small" color="font.secondary">
        Keep them somewhere safe, apart from your phone.
      </Text>
    </Flex>
  );
}
