import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { sr } from '@shared/texts/sr';
import type { AuctionDetail } from '@shared/schemas/auctions';
import { auctionEditTexts as t } from '@shared/texts/auction-edits';
import { LoadingScreen } from '../../../components/LoadingScreen';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useAuth } from '../../auth/use-auth';
import { useAuction } from '../api/auction-detail';
import { useEditAuction } from '../api/auction-edits';
import { CreateAuctionForm } from '../components/CreateAuctionForm';
import { EditImages } from '../components/EditImages';
import { createFailure } from '../components/create-errors';
import { validateCreate, type CreateValues } from '../components/create-validation';
import { useCreateAuctionForm } from '../hooks/use-create-auction-form';
import '../components/create.css';

const price = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

/** The create form's values of a stored auction. */
function valuesOf(a: AuctionDetail): CreateValues {
  return {
    title: a.title,
    description: a.description,
    current_price: String(a.starting_price),
    auction_duration: '',
    city: a.city,
    phone_number: a.phone_number,
    category: a.category,
    buy_now_price: price(a.buy_now_price),
    reserve_price: price(a.reserve_price),
  };
}

/** /nova-aukcija?izmena={id} (issue 26): the seller's own open auction without bids, in the create form, prefilled. */
export function EditAuctionPage({ id }: { id: number }) {
  const auction = useAuction(id);
  const auth = useAuth();
  useDocumentTitle(t.editTitle);
  const a = auction.data;
  if (auction.isPending) return <LoadingScreen text={sr.detail.loading} />;
  // What the page can tell (the server decides under the auction's lock and answers not_editable otherwise).
  if (!a || a.seller !== auth.user?.id || a.status === 'ended' || a.bid_count > 0) {
    return (
      <div className="page page--narrow">
        <p className="alert alert--error" role="alert">
          {a ? t.notEditable : sr.auctions.notFound}
        </p>
        {a && <Link to={`/aukcija/${a.id}`}>{a.title}</Link>}
      </div>
    );
  }
  return <EditForm auction={a} />;
}

function EditForm({ auction }: { auction: AuctionDetail }) {
  const navigate = useNavigate();
  const form = useCreateAuctionForm(valuesOf(auction));
  const save = useEditAuction(auction.id);
  const [failure, setFailure] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const { errors, data } = validateCreate({ ...form.values, auction_duration: '' }, 1);
    form.setErrors(errors);
    if (!data) return form.focusFirstError(errors);
    const { auction_duration: _end, ...fields } = data;
    save.mutate(
      { ...fields, buy_now_price: fields.buy_now_price ?? null, reserve_price: fields.reserve_price ?? null },
      {
        onSuccess: () => navigate(`/aukcija/${auction.id}`),
        onError: (err) => {
          const failed = createFailure(err);
          form.setErrors(failed.errors);
          setFailure(failed.text);
        },
      },
    );
  };
  return (
    <div className="page create-page">
      <h1 className="page-title">{t.editTitle}</h1>
      {failure && (
        <p className="alert alert--error create-page__failure" role="alert">
          {failure}
        </p>
      )}
      <EditImages auction={auction} />
      <CreateAuctionForm form={form} disabled={save.isPending} onSubmit={submit} edit={{ submit: t.editSave }} />
    </div>
  );
}
