import { Dialog } from '../../components/Dialog';
import { useNewOrgDialog } from '../../stores/new-org-store';
import { TemplateGallery } from './TemplateGallery';
import './first-run.css';

/** File → New Org… and the header's New org…: the template gallery over whatever the window shows. */
export function NewOrgDialog() {
  const open = useNewOrgDialog((store) => store.open);
  const hide = useNewOrgDialog((store) => store.hide);
  return (
    <Dialog
      open={open}
      title="New org"
      className="new-org-dialog"
      onClose={hide}
      actions={
        <button type="button" onClick={hide}>
          Cancel
        </button>
      }
    >
      <p>Start from a template: a team ready to work, which you can change afterwards.</p>
      {open && <TemplateGallery onCreated={hide} />}
    </Dialog>
  );
}
