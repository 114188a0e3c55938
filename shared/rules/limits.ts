/** Business constants of spec §9, used by the server's rules and the client's forms alike. */
export const MIN_BID_INCREMENT = 10;
export const PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
export const MIN_STARTING_PRICE = 100;
export const TITLE_MAX = 50;
export const COMMENT_MAX = 300;
export const DESCRIPTION_MAX = 5000;
export const DESCRIPTION_PREVIEW_WORDS = 10;
export const PASSWORD_MIN = 8;
export const AUCTION_DURATIONS = [1, 3, 4, 7] as const;
export const DEFAULT_AUCTION_DURATION = 4;
export const DISABLED_AUCTION_DURATIONS = [10] as const;
export const IMAGES_MIN = 1;
export const IMAGES_MAX = 6;
export const IMAGE_MAX_BYTES = 6 * 1024 * 1024;
export const NAME_MAX = 100;
export const CITY_MAX = 100;

/** Registration phone: optional plus, then digits, up to 15 (spec §5). */
export const REGISTRATION_PHONE_RE = /^\+?\d{6,15}$/;
/** Auction phone: a leading 0 followed by at least 8 more digits (spec §5). */
export const AUCTION_PHONE_RE = /^0\d{8,14}$/;
/** Password: ≥ 8 of letters, digits and !@#$%^&*, at least one digit (spec §5). */
export const PASSWORD_RE = new RegExp(`^(?=.*\\d)[A-Za-z\\d!@#$%^&*]{${PASSWORD_MIN},}$`);
export const PASSWORD_MAX = 128;
/** A pragmatic e-mail shape: something@something.tld, no spaces. */
export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
