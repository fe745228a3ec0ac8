import { Modal } from '../../components/Modal';
import { NewPageForm } from './NewPageForm';

/** AddPageModal is the pages list's 'Add Page' dialog (SPEC §2). */
export function AddPageModal({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Add Page" onClose={onClose}>
      <NewPageForm onCancel={onClose} />
    </Modal>
  );
}
