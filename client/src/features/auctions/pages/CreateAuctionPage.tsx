import { useSearchParams } from 'react-router-dom';
import { sr } from '@shared/texts/sr';
import { EditAuctionPage } from './EditAuctionPage';
import { Dialog } from '../../../components/Dialog';
import { LoadingScreen } from '../../../components/LoadingScreen';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { CreateAuctionForm } from '../components/CreateAuctionForm';
import { useCreateAuctionForm } from '../hooks/use-create-auction-form';
import { useCreateAuctionSubmit } from '../hooks/use-create-auction-submit';
import '../components/create.css';

function UploadProgress({ progress }: { progress: number }) {
  const percent = Math.round(progress * 100);
  return (
    <div className="page page--narrow create-page">
      <LoadingScreen text={sr.create.submitting} />
      <div className="upload-progress">
        <label className="field__label" htmlFor="upload-progress">
          {sr.auctions.uploading}
        </label>
        <progress id="upload-progress" max={100} value={percent}>
          {percent}%
        </progress>
      </div>
    </div>
  );
}

/**
 * /nova-aukcija; /nova-aukcija?izmena={id} edits the seller's own open auction without bids in the same form,
 * prefilled (issue 26): a page of this chunk, so the router (in every first load) gains no route for it.
 */
export default function CreateAuctionPage() {
  const editId = Number(useSearchParams()[0].get('izmena'));
  return Number.isSafeInteger(editId) && editId > 0 ? <EditAuctionPage id={editId} /> : <NewAuctionPage />;
}

function NewAuctionPage() {
  useDocumentTitle(sr.auctions.createTitle);
  const form = useCreateAuctionForm();
  const { phase, progress, failure, submit, finish } = useCreateAuctionSubmit(form);
  if (phase === 'submitting') return <UploadProgress progress={progress} />;
  return (
    <div className="page create-page">
      <h1 className="page-title">{sr.auctions.createTitle}</h1>
      {failure && (
        <p className="alert alert--error create-page__failure" role="alert">
          {failure}
        </p>
      )}
      {phase === 'success' && (
        <p className="alert alert--success" role="status">
          {sr.create.success}
        </p>
      )}
      <CreateAuctionForm form={form} disabled={phase !== 'editing'} onSubmit={(e) => void submit(e)} />
      <Dialog
        open={phase === 'success'}
        title={sr.common.congrats}
        onClose={finish}
        actions={
          <button type="button" className="btn btn--brand" onClick={finish}>
            {sr.common.close}
          </button>
        }
      >
        <p>{sr.create.success}</p>
      </Dialog>
    </div>
  );
}
