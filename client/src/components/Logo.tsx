export interface LogoProps {
  className?: string;
  /** When set, the logo is announced with this text; otherwise it is decorative. */
  title?: string;
  /** Only the mark, without the word (narrow screens). */
  compact?: boolean;
}

/** The Aukcije mark: a gavel in a rounded square plus the word. */
export function Logo({ className, title, compact = false }: LogoProps) {
  return (
    <svg
      className={className}
      viewBox={compact ? '0 0 36 40' : '0 0 160 40'}
      role={title ? 'img' : undefined}
      aria-label={title}
      aria-hidden={title ? undefined : true}
      focusable="false"
    >
      <rect x="0" y="2" width="36" height="36" rx="9" fill="#0b2545" />
      <g fill="#f4a261">
        <rect x="9" y="9" width="16" height="8" rx="2" transform="rotate(-35 17 13)" />
        <rect x="16" y="16" width="4" height="16" rx="2" transform="rotate(-35 18 24)" />
        <rect x="8" y="30" width="18" height="4" rx="2" />
      </g>
      {!compact && (
        <text x="44" y="28" fontFamily="system-ui, -apple-system, Segoe UI, Roboto, sans-serif" fontSize="22" fontWeight="700" fill="currentColor">
          Aukcije
        </text>
      )}
    </svg>
  );
}

export default Logo;
