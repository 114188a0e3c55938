import { Link } from 'react-router-dom';
import { sr } from '@shared/texts/sr';
import { useDocumentTitle } from '../lib/use-document-title';
import './not-found.css';

export default function NotFoundPage() {
  useDocumentTitle(sr.common.notFoundTitle);
  return (
    <div className="page not-found">
      <h1 className="not-found__title">{sr.common.notFoundTitle}</h1>
      <p className="not-found__text">{sr.common.notFoundText}</p>
      <Link className="btn btn--brand" to="/aukcije">
        {sr.app.backToAuctions}
      </Link>
    </div>
  );
}
