import { Flex, Heading, Text, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { hasEmailField, MAX_NOTIFY_EMAILS, type FormField } from './builder';
import type { FormDetails } from './useFormBuilder';

type MailDetail = 'notifyEmails' | 'autoReplySubject' | 'autoReplyMessage';

/**
 * MailSettings is the form builder's mail: who is told of each submission (notifyEmails), and the
 * auto-reply sent to the submitter's address (the form's first Email field). An empty message
 * sends no auto-reply.
 */
export function MailSettings({
  details,
  setDetail,
  errors,
  fields,
}: {
  details: FormDetails;
  setDetail: (name: MailDetail, value: string) => void;
  errors: Record<string, string>;
  fields: FormField[];
}) {
  return (
    <Flex direction="column" gap="medium" as="section" aria-label="Notifications">
      <Heading level={4}>Notifications</Heading>
      <TextAreaField
        label="Notify Emails"
        inputMode="email"
        autoCapitalize="none"
        spellCheck={false}
        descriptiveText={`Each submission is emailed to these addresses (one per line, at most ${MAX_NOTIFY_EMAILS}).`}
        placeholder="office@example.org"
        rows={3}
        value={details.notifyEmails}
        onChange={(e) => setDetail('notifyEmails', e.target.value)}
        hasError={Boolean(errors.notifyEmails)}
        errorMessage={errors.notifyEmails}
      />
      <TextField
        label="Auto-reply Subject"
        maxLength={200}
        value={details.autoReplySubject}
        onChange={(e) => setDetail('autoReplySubject', e.target.value)}
        hasError={Boolean(errors.autoReplySubject)}
        errorMessage={errors.autoReplySubject}
      />
      <TextAreaField
        label="Auto-reply Message"
        descriptiveText="Sent to the address given in the form's Email field. Leave empty to send no auto-reply."
        rows={4}
        maxLength={5000}
        value={details.autoReplyMessage}
        onChange={(e) => setDetail('autoReplyMessage', e.target.value)}
        hasError={Boolean(errors.autoReplyMessage)}
        errorMessage={errors.autoReplyMessage}
      />
      {details.autoReplyMessage.trim() !== '' && !hasEmailField(fields) && (
        <Text color="font.warning">Add an Email field to the form: the auto-reply is sent to the address given there.</Text>
      )}
    </Flex>
  );
}
