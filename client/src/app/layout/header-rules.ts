/** Which header controls a path shows (spec §2 "Header"); pure, so it is tested without a DOM. */
export interface HeaderControls {
  postAuction: boolean;
  home: boolean;
  /** 'Imaš nalog? → Uloguj se' */
  haveAccount: boolean;
  /** 'Nemaš nalog? → Registruj se' */
  noAccount: boolean;
  /** Logged-out 'Uloguj se' */
  login: boolean;
  /** Logged-out 'Registruj se' */
  register: boolean;
  /** Bell and user menu */
  userControls: boolean;
}

const norm = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p);
const isLanding = (p: string) => p === '/' || p === '/pocetna';

export function headerControls(pathname: string, loggedIn: boolean): HeaderControls {
  const p = norm(pathname);
  const onAuctionPages = p === '/aukcije' || p === '/aukcija' || p.startsWith('/aukcija/');
  return {
    postAuction: p === '/aukcije' || p === '/aukcija',
    home: !['/aukcije', '/login', '/registracija'].includes(p) && !isLanding(p),
    haveAccount: !loggedIn && p === '/registracija',
    noAccount: !loggedIn && p === '/login',
    login: !loggedIn && (onAuctionPages || isLanding(p)),
    register: !loggedIn && (p === '/aukcija' || p.startsWith('/aukcija/') || isLanding(p)),
    userControls: loggedIn,
  };
}
