import { sr } from '@shared/texts/sr';
import './footer.css';

const social = [
  { name: 'Facebook', href: 'https://www.facebook.com/', path: 'M14 8h3V4h-3a4 4 0 00-4 4v2H8v4h2v8h4v-8h3l1-4h-4V8z' },
  { name: 'Instagram', href: 'https://www.instagram.com/', path: 'M7 3h10a4 4 0 014 4v10a4 4 0 01-4 4H7a4 4 0 01-4-4V7a4 4 0 014-4zm5 5a4 4 0 100 8 4 4 0 000-8zm5.5-1.5a1 1 0 100 2 1 1 0 000-2z' },
  { name: 'X', href: 'https://x.com/', path: 'M4 4l16 16M20 4L4 20' },
];

export function Footer() {
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <div className="site-footer__brand">
          <strong>Aukcije</strong>
          <p>{sr.app.footerTagline}</p>
        </div>
        <nav aria-label={sr.app.footerSocial}>
          <ul className="site-footer__social">
            {social.map((s) => (
              <li key={s.name}>
                <a href={s.href} target="_blank" rel="noopener noreferrer" aria-label={s.name}>
                  <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
                    <path d={s.path} />
                  </svg>
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <p className="site-footer__mail">
          {sr.app.footerContact}: <a href={`mailto:${sr.app.footerEmail}`}>{sr.app.footerEmail}</a>
        </p>
        <p className="site-footer__copy">{sr.app.footerCopyright}</p>
      </div>
    </footer>
  );
}

export default Footer;
