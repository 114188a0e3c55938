import { Link } from 'react-router-dom';
import { sr } from '@shared/texts/sr';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { PopularCarousel } from '../components/PopularCarousel';
import '../landing.css';

export default function LandingPage() {
  useDocumentTitle(sr.app.landingHeading);
  return (
    <div className="landing">
      <section className="landing__hero">
        <div className="landing__hero-inner">
          <h1 className="landing__heading">{sr.app.landingHeading}</h1>
          <p className="landing__tagline">{sr.app.landingTagline}</p>
          <div className="landing__cta">
            <Link to="/aukcije" className="btn btn--primary">
              {sr.landing.viewAuctions}
            </Link>
            <Link to="/nova-aukcija" className="btn btn--brand-light">
              {sr.landing.postAuction}
            </Link>
          </div>
        </div>
      </section>
      <PopularCarousel />
    </div>
  );
}
